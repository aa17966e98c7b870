/// An event of a batch that was not stored, and why: an element of the ingest
/// response's `rejected` list.
struct Rejection: Encodable, Equatable {
    /// The event's position in the batch's `events` array.
    let index: Int
    /// What was wrong, for the developer reading the response.
    let reason: String
}
