/// A JSON object's members, in the order the document lists them.
///
/// Reading a member scans from the end, so a repeated key reads as its last value. Request
/// bodies hold objects of about ten members, for which a scan beats hashing every key.
@_spi(Wire) public struct JSONObject: Hashable, Sendable {
    /// One `"key": value` pair.
    public struct Member: Hashable, Sendable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: JSONValue
    }

    /// Every member, repeated keys included, in document order.
    public private(set) var members: [Member] = []

    /// An object of the members `pairs`, in their order.
    public init(_ pairs: some Sequence<(key: String, value: JSONValue)> = []) {
        for (key, value) in pairs { append(key, value) }
    }

    /// Adds the member `key: value` after the others.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// The last value given for `key`, or `nil` if the object has no such member.
    public subscript(key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }
}
