extension PropertyValue: ExpressibleByStringLiteral {
    /// Creates a `.string` value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyValue: ExpressibleByIntegerLiteral {
    /// Creates an `.int` value from an integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension PropertyValue: ExpressibleByFloatLiteral {
    /// Creates a `.double` value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
    /// Creates a `.bool` value from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyValue: ExpressibleByNilLiteral {
    /// Creates `.null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
}
