import Foundation

extension FormatStyle where Self == Date.ISO8601FormatStyle {
    /// The wire format for timestamps: `2026-11-22T10:15:30.123+08:00`, or `…Z` in UTC.
    static func wire(timeZone: TimeZone = .current) -> Self {
        Self(includingFractionalSeconds: true, timeZone: timeZone).timeZoneSeparator(.colon)
    }
}

extension Date {
    /// Parses a wire-format timestamp, whatever its offset; `nil` if it is not one.
    init?(wireTimestamp: String) {
        guard let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(wireTimestamp) else {
            return nil
        }
        self = date
    }
}
