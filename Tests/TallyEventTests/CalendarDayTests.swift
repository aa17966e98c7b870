import Foundation
import TallyEvent
import Testing

@Suite struct CalendarDayTests {
    @Test func daysRoundTripThroughTheirText() throws {
        for text in ["1970-01-01", "2000-02-29", "2026-12-31", "1969-12-31", "0001-01-01", "9999-12-31"] {
            #expect(try #require(CalendarDay(text)).description == text)
        }
        #expect(CalendarDay("1970-01-01")?.daysSince1970 == 0)
        #expect(CalendarDay("2026-03-01")?.daysSince1970 == 20_513)
    }

    /// A day starts at the instant that is the day's in the zone while the second before it is
    /// the day before's: midnight, or where a zone skips midnight (Santiago on 2024-09-08 went
    /// from 23:59:59 to 01:00), the instant after the gap.
    @Test(arguments: ["UTC", "Asia/Kathmandu", "America/Santiago", "America/Havana", "Australia/Lord_Howe", "Pacific/Apia"])
    func aDayStartsAtItsFirstInstantInTheZone(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        for days in stride(from: 19_000, through: 20_800, by: 1) {
            let day = CalendarDay(daysSince1970: days)
            let start = try #require(day.start(in: timeZone))
            #expect(CalendarDay(start, in: timeZone) == day, "\(day) in \(zone)")
            #expect(CalendarDay(start.addingTimeInterval(-1), in: timeZone) == day.advanced(by: -1), "\(day) in \(zone)")
        }
        let santiago = try #require(TimeZone(identifier: "America/Santiago"))
        #expect(CalendarDay("2024-09-08")?.start(in: santiago) == Date(timeIntervalSince1970: 1_725_768_000))  // 04:00Z, 01:00 local
        #expect(
            CalendarDay("2026-03-01")?.start(in: try #require(TimeZone(identifier: "Asia/Kathmandu"))) == Date(timeIntervalSince1970: 1_772_302_500))
    }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-4-01", "2026-04-1", "20260401", "2026-04-01 ", "", "２０２６-04-01"])
    func textThatIsNoDayIsRefused(text: String) {
        #expect(CalendarDay(text) == nil)
    }

    /// From 1582-10-15, where Foundation's Gregorian calendar starts (before it, it is
    /// Julian; ISO 8601 and `CalendarDay` stay Gregorian), to 9999-12-31.
    @Test(arguments: [-141_427, -1, 0, 59, 11_016, 20_513, 2_932_896])
    func componentsMatchTheGregorianCalendar(days: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let expected = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
        let (year, month, day) = CalendarDay(daysSince1970: days).components
        let written = [year, month, day]
        #expect(written == [expected.year, expected.month, expected.day].compactMap { $0 })
        #expect(CalendarDay(year: year, month: month, day: day)?.daysSince1970 == days)
    }

    /// An instant's day in a zone is the day Foundation's calendar gives it there, around
    /// midnight and across DST changes, in zones east and west and with odd offsets.
    @Test(arguments: ["UTC", "Asia/Shanghai", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns"])
    func anInstantsDayInAZoneIsTheCalendars(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        for offset in stride(from: 0.0, to: 400 * 86_400, by: 3_541) {
            let date = Date(timeIntervalSince1970: 1_772_000_000 + offset)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            #expect(CalendarDay(date, in: timeZone) == CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!))
        }
    }

    @Test func weeksStartOnMondayAndMonthsOnTheirFirst() throws {
        let day = try #require(CalendarDay("2026-11-25"))  // a Wednesday
        #expect(day.monday.description == "2026-11-23")
        #expect(day.monday.monday == day.monday)
        #expect(CalendarDay("1969-12-31")?.monday.description == "1969-12-29")
        #expect(day.firstOfMonth.description == "2026-11-01")
        #expect(day.advanced(by: 7).description == "2026-12-02")
        #expect(day.distance(to: try #require(CalendarDay("2027-01-01"))) == 37)
    }
}
