/// Why a sign-in was refused. The message never says whether the name exists.
public enum SignInError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name or the password is wrong.
    case wrongNameOrPassword
    /// Too many failed sign-ins from this address or for this name; try again after `retryAfter` seconds.
    case tooManyAttempts(retryAfter: Int)

    public var description: String {
        switch self {
        case .wrongNameOrPassword: "wrong user name or password"
        case .tooManyAttempts(let seconds): "too many failed sign-ins; try again in \(seconds) s"
        }
    }
}
