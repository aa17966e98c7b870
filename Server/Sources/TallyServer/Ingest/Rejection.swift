/// An event of a batch that was not stored, and why: an element of the ingest
/// response's `rejected` list.
struct Rejection: Encodable, Equatable {
    /// The reason: a stable code for counting, and a sentence for the developer reading the response.
    struct Reason: Error, Equatable {
        /// The rule the event broke, as counted in the store's data health (``code`` raw values
        /// are stable: dashboards show and group by them).
        enum Code: String, CaseIterable {
            /// The event could not be read: an unreadable value, or not a JSON object.
            case unreadable
            case invalidID = "invalid_id"
            case invalidName = "invalid_name"
            case invalidTimestamp = "invalid_timestamp"
            case invalidUserID = "invalid_user_id"
            /// `session_id`, `app_version` or `platform`.
            case invalidField = "invalid_field"
            case invalidProperties = "invalid_properties"
            case tooOld = "too_old"
            case inFuture = "in_future"
        }

        let code: Code
        let message: String

        init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The event's position in the batch's `events` array.
    let index: Int
    let reason: String
}
