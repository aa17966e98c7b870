/// What ``EventLog/insert(_:app:)`` did with a batch.
public struct InsertResult: Hashable, Sendable {
    /// Events stored by this call.
    public var accepted: Int
    /// Events not stored because their id was already stored for the app, or appeared
    /// earlier in the same batch. `accepted + duplicates` is the batch size.
    public var duplicates: Int

    /// The result of a batch of `accepted` new events and `duplicates` others.
    public init(accepted: Int = 0, duplicates: Int = 0) {
        self.accepted = accepted
        self.duplicates = duplicates
    }

    /// The result of storing this result's batch and `other`'s.
    func adding(_ other: InsertResult) -> InsertResult {
        InsertResult(accepted: accepted + other.accepted, duplicates: duplicates + other.duplicates)
    }
}
