/// The body of a 200 answer to `POST /v1/events`.
struct IngestResponse: Encodable, Equatable {
    /// Events stored by this request.
    let accepted: Int
    /// Valid events whose id was already stored for the app (or repeated in the batch).
    let duplicates: Int
    /// Events refused, each with its index and reason.
    let rejected: [Rejection]
}
