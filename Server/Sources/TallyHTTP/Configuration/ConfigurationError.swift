/// A ``ServerSettings`` setting out of its range, found by ``ServerSettings/validate()``.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The setting's name, as in ``ServerSettings`` (`"rateLimit.burst"`).
    public let setting: String
    /// The value it was given.
    public let value: String
    /// What it must be.
    public let expected: String

    public var description: String { "\(setting) is \(value); it must be \(expected)" }
}
