/// An event of a batch that was not stored, and why: an element of the ingest
/// response's `rejected` list.
struct Rejection: Encodable, Equatable {
    /// The reason, as a sentence for the developer reading the response.
    struct Reason: Error, Equatable, ExpressibleByStringInterpolation {
        let message: String

        init(stringLiteral message: String) {
            self.message = message
        }

        init(stringInterpolation: DefaultStringInterpolation) {
            message = String(stringInterpolation: stringInterpolation)
        }
    }

    /// The event's position in the batch's `events` array.
    let index: Int
    let reason: String
}
