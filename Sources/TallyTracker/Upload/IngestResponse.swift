/// The part of a 200 answer from `POST /v1/events` the tracker acts on: which events of
/// the batch the server refused (`accepted` and `duplicates` need no action).
struct IngestResponse: Decodable {
    struct Rejection: Decodable {
        /// Index of the rejected event within the uploaded batch.
        let index: Int
    }

    let rejected: [Rejection]?
}
