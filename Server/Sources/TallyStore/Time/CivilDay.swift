/// A calendar day (proleptic Gregorian), independent of any time zone, as a serial number
/// of days since 1970-01-01 so that day arithmetic is integer arithmetic.
///
/// Conversions use Howard Hinnant's `days_from_civil` / `civil_from_days` algorithms.
struct CivilDay: Hashable {
    /// Days since 1970-01-01.
    var serial: Int

    init(serial: Int) { self.serial = serial }

    /// Parses exactly `YYYY-MM-DD`, rejecting days that do not exist.
    init(_ text: String) throws(TallyStoreError) {
        let utf8 = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            range.reduce(0) { total, i in
                guard let total, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[i]) else { return nil }
                return total * 10 + Int(utf8[i] - UInt8(ascii: "0"))
            }
        }
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { throw .invalidDate(text) }
        self.init(year: year, month: month, day: day)
    }

    /// The day `day` of `month` (1…12) of `year`, which must exist.
    init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        serial = era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month (1…12) and day (1…31).
    var components: (year: Int, month: Int, day: Int) {
        let z = serial + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The Monday of the ISO 8601 week holding this day.
    var monday: CivilDay {
        // 1970-01-01 (serial 0) was a Thursday, 3 days after a Monday.
        let sinceMonday = Int64(serial) + 3 - Bucket.floorDivide(Int64(serial) + 3, 7) * 7
        return advanced(by: -Int(sinceMonday))
    }

    /// The day as `YYYY-MM-DD`.
    var text: String {
        let (year, month, day) = components
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
