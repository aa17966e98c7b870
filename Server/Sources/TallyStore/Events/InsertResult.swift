/// What ``EventStore/insert(_:app:)`` did with a batch.
public struct InsertResult: Hashable, Sendable {
    /// Events stored by this call.
    public var accepted: Int
    /// Events not stored because their id was already stored for the app, or appeared
    /// earlier in the same batch. `accepted + duplicates` is the batch size.
    public var duplicates: Int
    /// The events stored by this call, counted per event name; duplicates are not counted.
    public var acceptedByName: [String: Int]
}
