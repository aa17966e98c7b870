/// Why a mediator call or registration failed. Calls never crash: every failure is one of
/// these.
public enum MediatorError: Error {
    /// No target is registered under the name — often a module that is not linked.
    /// `suggestion` is a registered name close to it, if any ("did you mean").
    case targetNotFound(String, suggestion: String?)
    /// The target declares no such action, and has no not-found handler. `suggestion` is
    /// a declared action close to it, if any.
    case actionNotFound(target: String, action: String, suggestion: String?)
    /// A URL named an action URLs may not call: one that allows in-process calls only, one
    /// the target does not declare, or one of a target nobody registered. The error does
    /// not say which, and names only what the URL said.
    case notExposed(target: String, action: String)
    /// The parameter `name` is missing (`found` is `nil`) or holds a value of type `found`
    /// that cannot be an `expected`.
    case badParameter(name: String, expected: String, found: String?)
    /// The action's result, of type `found`, cannot be the `expected` type the caller
    /// asked for.
    case unexpectedResult(target: String, action: String, expected: String, found: String)
    /// An interceptor refused the call.
    case refused(target: String, action: String, reason: String)
    /// The action is isolated to the main actor and was called synchronously from
    /// elsewhere; call it from the main actor, or with ``Mediator/callAsync(_:_:_:as:)``.
    case needsMainActor(target: String, action: String)
    /// The action is asynchronous; call it with ``Mediator/callAsync(_:_:_:as:)``.
    case needsAsyncCall(target: String, action: String)
    /// The URL does not have the form `scheme://target/action?key=value`.
    case badURL(String)
    /// The action (or a fallback) threw `underlying`.
    case actionFailed(target: String, action: String, underlying: any Error)
    /// A target was registered with a blank name.
    case blankTargetName
    /// A target is already registered under this name.
    case duplicateTarget(String)
}
