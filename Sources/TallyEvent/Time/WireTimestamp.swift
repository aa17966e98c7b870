public import Foundation

extension FormatStyle where Self == Date.ISO8601FormatStyle {
    /// The ingest API's timestamps: `2026-11-22T10:15:30.123+08:00`, or `…Z` in UTC.
    @_spi(Wire) public static func wire(timeZone: TimeZone = .current) -> Self {
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
    @_spi(Wire) public init?(wireTimestamp text: some StringProtocol) {
        let instant = ASCIIReader.read(text) { text -> (seconds: Int, milliseconds: Int)? in
            guard let year = text.number(digits: 4), text.take("-"),
                let month = text.number(digits: 2), text.take("-"),
                let day = text.number(digits: 2), text.take("T") || text.take("t"),
                let hour = text.number(digits: 2), text.take(":"),
                let minute = text.number(digits: 2), text.take(":"),
                let second = text.number(digits: 2),
                let date = CalendarDay(year: year, month: month, day: day), hour < 24, minute < 60, second < 60
            else { return nil }

            var milliseconds = 0
            if text.take(".") {
                var digits = 0
                while let byte = text.next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    if digits < 3 { milliseconds = milliseconds * 10 + Int(byte - UInt8(ascii: "0")) }
                    digits += 1
                    text.skip()
                }
                guard (1...9).contains(digits) else { return nil }
                for _ in 0..<max(0, 3 - digits) { milliseconds *= 10 }
            }

            let offset: Int
            if text.take("Z") || text.take("z") {
                offset = 0
            } else {
                let sign: Int
                if text.take("+") { sign = 1 } else if text.take("-") { sign = -1 } else { return nil }
                guard let hours = text.number(digits: 2) else { return nil }
                _ = text.take(":")
                guard let minutes = text.number(digits: 2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
            return (date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offset, milliseconds)
        }
        guard let instant else { return nil }
        self.init(timeIntervalSince1970: Double(instant.seconds) + Double(instant.milliseconds) / 1000)
    }
}
