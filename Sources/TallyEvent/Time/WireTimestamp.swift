public import Foundation

extension FormatStyle where Self == Date.ISO8601FormatStyle {
    /// The ingest API's timestamps: `2026-11-22T10:15:30.123+08:00`, or `…Z` in UTC.
    public static func wire(timeZone: TimeZone = .current) -> Self {
        Self(includingFractionalSeconds: true, timeZone: timeZone).timeZoneSeparator(.colon)
    }
}

extension Date {
    /// The instant of an ingest API timestamp: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of
    /// up to nine digits (kept to the millisecond, which is what the store keeps), and a
    /// required offset (`Z`, `±HH:MM` or `±HHMM`); `nil` for any other text.
    ///
    /// Hand-written because a batch holds up to a thousand of them and Foundation's parser
    /// costs microseconds each.
    public init?(wireTimestamp text: some StringProtocol) {
        var utf8 = Substring(text).utf8
        guard let year = utf8.number(digits: 4), utf8.take("-"),
            let month = utf8.number(digits: 2), utf8.take("-"),
            let day = utf8.number(digits: 2), utf8.take("T") || utf8.take("t"),
            let hour = utf8.number(digits: 2), utf8.take(":"),
            let minute = utf8.number(digits: 2), utf8.take(":"),
            let second = utf8.number(digits: 2),
            let date = CalendarDay(year: year, month: month, day: day), hour < 24, minute < 60, second < 60
        else { return nil }

        var milliseconds = 0
        if utf8.take(".") {
            var digits = 0
            while let byte = utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(byte - UInt8(ascii: "0")) }
                digits += 1
                utf8.removeFirst()
            }
            guard (1...9).contains(digits) else { return nil }
            for _ in 0..<max(0, 3 - digits) { milliseconds *= 10 }
        }

        let offset: Int
        if utf8.take("Z") || utf8.take("z") {
            offset = 0
        } else {
            let sign: Int
            if utf8.take("+") { sign = 1 } else if utf8.take("-") { sign = -1 } else { return nil }
            guard let hours = utf8.number(digits: 2) else { return nil }
            _ = utf8.take(":")
            guard let minutes = utf8.number(digits: 2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard utf8.isEmpty else { return nil }

        let seconds = date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offset
        self.init(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
    }
}
