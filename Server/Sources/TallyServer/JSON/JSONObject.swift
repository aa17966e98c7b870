/// A JSON object's members, in the order the document lists them.
///
/// Reading a member scans from the end, so a repeated key reads as its last value. Request
/// bodies hold objects of about ten members, for which a scan beats hashing every key.
struct JSONObject: Hashable, Sendable {
    /// One `"key": value` pair.
    struct Member: Hashable, Sendable {
        var key: String
        var value: JSONValue
    }

    /// Every member, repeated keys included, in document order.
    var members: [Member] = []

    /// The last value given for `key`, or `nil` if the object has no such member.
    subscript(key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }
}
