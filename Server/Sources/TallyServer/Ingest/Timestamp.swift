import Foundation

/// Parses the ISO-8601 timestamps of the ingest API: `YYYY-MM-DDTHH:MM:SS`, an optional
/// fraction of up to nine digits, and a required offset (`Z`, `±HH:MM` or `±HHMM`).
///
/// Hand-written because a batch holds up to a thousand of them and Foundation's parser
/// costs microseconds each; exact to the millisecond, which is what the store keeps.
enum Timestamp {
    static func parse(_ text: String) -> Date? {
        var utf8 = Array(text.utf8)[...]
        guard let year = number(&utf8, digits: 4), take(&utf8, "-"),
            let month = number(&utf8, digits: 2), take(&utf8, "-"),
            let day = number(&utf8, digits: 2), take(&utf8, "T") || take(&utf8, "t"),
            let hour = number(&utf8, digits: 2), take(&utf8, ":"),
            let minute = number(&utf8, digits: 2), take(&utf8, ":"),
            let second = number(&utf8, digits: 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }

        var milliseconds = 0
        if take(&utf8, ".") {
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
        if take(&utf8, "Z") || take(&utf8, "z") {
            offset = 0
        } else {
            let sign: Int
            if take(&utf8, "+") { sign = 1 } else if take(&utf8, "-") { sign = -1 } else { return nil }
            guard let hours = number(&utf8, digits: 2) else { return nil }
            _ = take(&utf8, ":")
            guard let minutes = number(&utf8, digits: 2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard utf8.isEmpty else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
    }

    private static func take(_ utf8: inout ArraySlice<UInt8>, _ character: Unicode.Scalar) -> Bool {
        guard utf8.first == UInt8(ascii: character) else { return false }
        utf8.removeFirst()
        return true
    }

    private static func number(_ utf8: inout ArraySlice<UInt8>, digits: Int) -> Int? {
        guard utf8.count >= digits else { return nil }
        var value = 0
        for byte in utf8.prefix(digits) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        utf8.removeFirst(digits)
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
