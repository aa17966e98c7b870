/// What ``EventStore/insert(_:app:)`` did with a batch.
public struct InsertResult: Hashable, Sendable {
    /// Events stored by this call.
    public var accepted: Int
    /// Events not stored because their id was already stored for the app, or appeared
    /// earlier in the same batch. `accepted + duplicates` is the batch size.
    public var duplicates: Int
    /// The events stored by this call, counted per event name; duplicates are not counted.
    public var acceptedByName: [String: Int]

    /// Nothing stored.
    init(accepted: Int = 0, duplicates: Int = 0, acceptedByName: [String: Int] = [:]) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.acceptedByName = acceptedByName
    }

    /// The result of storing this result's batch and `other`'s.
    func adding(_ other: InsertResult) -> InsertResult {
        InsertResult(
            accepted: accepted + other.accepted, duplicates: duplicates + other.duplicates,
            acceptedByName: acceptedByName.merging(other.acceptedByName, uniquingKeysWith: +))
    }
}
