/// An object named in a ``SyncTrace`` — the emitting object, the objects skipped — by
/// its class and identity, without keeping it alive or handing it to other threads.
///
/// ```swift
/// #expect(trace.skipped == [SyncObject(badge)])
/// ```
///
/// Identity is the object's address while it lives: compare with objects known to be
/// alive, since a new object may reuse the address of one deallocated.
public struct SyncObject: Hashable, Sendable, CustomStringConvertible {
    /// The object's identity.
    public let id: ObjectIdentifier
    /// The object's class.
    public let type: any AnyObject.Type

    /// Names `object`.
    public init(_ object: AnyObject) {
        id = ObjectIdentifier(object)
        type = Swift.type(of: object)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// The class and the address, as in `UserRow(0x…)`.
    public var description: String {
        "\(type)(0x\(String(UInt(bitPattern: id), radix: 16)))"
    }
}
