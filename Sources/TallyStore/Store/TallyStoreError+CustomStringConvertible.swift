extension TallyStoreError: CustomStringConvertible {
    /// A sentence describing the error, suitable for an API error response.
    public var description: String {
        switch self {
        case .invalidDate(let text):
            "Invalid date \"\(text)\": expected a calendar day as YYYY-MM-DD."
        case .invalidTimeZone(let identifier):
            "Unknown time zone \"\(identifier)\": expected an IANA identifier such as Europe/Paris."
        case .invalidRange(let from, let to):
            "Invalid range \(from)…\(to): the end must not precede the start, and at most \(EventStore.maximumRangeDays) days."
        case .unknownApp(let id):
            "No app has id \(id.rawValue)."
        case .invalidAcceptedEventAge(let seconds):
            "Invalid accepted event age of \(seconds) seconds: expected 1 second to \(Int(App.maximumAcceptedEventAge / 86_400)) days."
        case .unsupportedDayBoundary(let date, let timeZone):
            "The day \(date) in \(timeZone) does not start on a 15-minute boundary in UTC."
        }
    }
}
