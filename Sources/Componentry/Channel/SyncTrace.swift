/// One emit of a ``SyncChannel``, once applied: what was emitted to which identity, and
/// what became of it — reported to ``SyncChannel/tracer``.
///
/// ```swift
/// channel.tracer = { trace in
///     if !trace.skipped.isEmpty { print(trace) }
/// }
/// ```
public struct SyncTrace: Sendable, CustomStringConvertible {
    /// The name of the entity's ``SyncType``.
    public let type: String
    /// The entity's id.
    public let id: any Hashable & Sendable
    /// The key's name.
    public let key: String
    /// The value emitted.
    public let value: any Sendable
    /// The object whose ``Syncable/emit(_:_:)`` sent it (and set it itself), or `nil`.
    public let source: SyncObject?
    /// How many objects the channel set the value on (the source not included).
    public let updated: Int
    /// The objects of the identity whose class does not accept the key (the source
    /// included), which were left alone.
    public let skipped: [SyncObject]

    /// One line: `user[42].followed = true from UserRow(0x…): 2 updated, skipped …`.
    public var description: String {
        var line = "\(type)[\(id)].\(key) = \(value)"
        if let source { line += " from \(source)" }
        line += ": \(updated) updated"
        if !skipped.isEmpty { line += ", skipped " + skipped.map(\.description).joined(separator: ", ") }
        return line
    }
}
