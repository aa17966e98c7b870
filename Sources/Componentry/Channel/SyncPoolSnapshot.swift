/// What a ``SyncChannel``'s pool holds at one moment, from ``SyncChannel/snapshot()``.
///
/// ```swift
/// print(SyncChannel.shared.snapshot())   // post: 120, user: 3 (123 objects, 57 identities)
/// ```
///
/// An object counts from the moment it joins until its ``SyncMembership`` is deallocated
/// — with the object, unless someone else keeps the membership.
public struct SyncPoolSnapshot: Equatable, Sendable, CustomStringConvertible {
    /// Pooled objects per ``SyncType``, by name; types without objects are absent.
    public let objectCounts: [String: Int]
    /// How many identities (type and id) the pooled objects have.
    public let identityCount: Int

    /// All pooled objects.
    public var objectCount: Int {
        objectCounts.values.reduce(0, +)
    }

    /// Types by name with their counts, then the totals.
    public var description: String {
        let types = objectCounts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return types.joined(separator: ", ") + (types.isEmpty ? "" : " ") + "(\(objectCount) objects, \(identityCount) identities)"
    }
}
