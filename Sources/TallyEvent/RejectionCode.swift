/// The rule an event broke when the collector refused it: the key under which the store's
/// data health and the collector's metrics count it (the ingest response's `rejected`
/// entries give the ``EventRejection/message``). The raw values are stable: dashboards show
/// and group by them.
@_spi(Wire) public enum RejectionCode: String, CaseIterable, Sendable {
    /// The event could not be read: an unreadable value, or not a JSON object.
    case unreadable
    /// `id` is not a UUID.
    case invalidID = "invalid_id"
    /// `name` breaks ``Event/isValidName(_:)``.
    case invalidName = "invalid_name"
    /// `timestamp` is not an ISO-8601 timestamp with an offset.
    case invalidTimestamp = "invalid_timestamp"
    /// `user_id` is missing, empty or too long.
    case invalidUserID = "invalid_user_id"
    /// `session_id`, `app_version`, `platform` or `debug`.
    case invalidField = "invalid_field"
    /// `properties` is not an object of at most ``Event/maximumProperties`` scalars.
    case invalidProperties = "invalid_properties"
    /// The corrected timestamp is older than the app accepts.
    case tooOld = "too_old"
    /// The corrected timestamp is too far in the future.
    case inFuture = "in_future"
}

/// Why an event was refused: the rule it broke and a sentence for the developer reading
/// the response.
@_spi(Wire) public struct EventRejection: Error, Equatable, Sendable {
    /// The rule.
    public let code: RejectionCode
    /// What was wrong, for a person.
    public let message: String

    /// A rejection for breaking `code`, explained by `message`.
    public init(_ code: RejectionCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
