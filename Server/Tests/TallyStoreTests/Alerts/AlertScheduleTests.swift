import Foundation
import TallyEvent
import Testing

@testable import TallyStore

/// Evaluation times are the starts of local hours, DST and odd offsets included; the start
/// of a local day ends the day before.
@Suite struct AlertScheduleTests {
    static func date(_ text: String) -> Date { try! Date(text, strategy: Date.ISO8601FormatStyle()) }

    @Test(arguments: ["UTC", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe", "America/Santiago", "Europe/Berlin"])
    func everyLocalHourStartIsAnEvaluationTimeAndNothingElse(timeZone: String) {
        let zone = TimeZone(identifier: timeZone)!
        let schedule = AlertSchedule(timeZone: zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // A year, minute by quarter hour, brute force: local minute 0 and second 0.
        var expected: [Date] = []
        var instant = Self.date("2026-01-01T00:00:00Z")
        while instant < Self.date("2027-01-01T00:00:00Z") {
            if calendar.component(.minute, from: instant) == 0 { expected.append(instant) }
            instant += 900
        }
        var found: [Date] = []
        var cursor = Self.date("2025-12-31T23:59:59Z")
        while true {
            cursor = schedule.next(after: cursor)
            guard cursor < Self.date("2027-01-01T00:00:00Z") else { break }
            found.append(cursor)
        }
        #expect(found == expected)
        #expect(schedule.latest(atOrBefore: expected[100] + 1) == expected[100])
        #expect(schedule.latest(atOrBefore: expected[100]) == expected[100])
        // Days end at local day starts, 23, 24 or 25 hours apart.
        let days = found.filter { schedule.slot(at: $0).endsDay }
        #expect(days.count == 365)
        for (start, next) in zip(days, days.dropFirst()) {
            #expect(calendar.startOfDay(for: start) == start)
            #expect(schedule.slot(at: next).day == CalendarDay(start, in: zone))
        }
    }

    /// On 2026-03-08 New York skips 02:00: the hours are 01:00 EST then 03:00 EDT, and the day
    /// ends after 23 hours.
    @Test func theSpringForwardDayHas23EvaluationTimes() {
        let schedule = AlertSchedule(timeZone: TimeZone(identifier: "America/New_York")!)
        var times: [Date] = []
        var cursor = Self.date("2026-03-08T05:00:00Z")
        times.append(cursor)
        while true {
            cursor = schedule.next(after: cursor)
            guard cursor <= Self.date("2026-03-09T04:00:00Z") else { break }
            times.append(cursor)
        }
        #expect(times.count == 24)
        #expect(schedule.slot(at: times.first!).endsDay)
        #expect(schedule.slot(at: times.last!).endsDay && schedule.slot(at: times.last!).day == CalendarDay("2026-03-08"))
        #expect(times.dropFirst().dropLast().allSatisfy { !schedule.slot(at: $0).endsDay && schedule.slot(at: $0).day == CalendarDay("2026-03-08") })
        #expect(times[2] == Self.date("2026-03-08T07:00:00Z"))  // 03:00 EDT follows 01:00 EST
    }

    @Test(
        arguments: [
            ("above 10", 11.0, nil, true), ("above 10", 10.0, nil, false), ("below 5", 4.5, nil, true), ("below 5", 5, nil, false),
            ("change 20%", 121, 100, true), ("change 20%", 120, 100, false), ("change 20%", 79, 100, true), ("change 20%", 80, 100, false),
            ("change 0%", 1, 0, true), ("change 50%", 0, 0, false), ("change 20%", 1_000, nil, false),
        ] as [(String, Double, Double?, Bool)])
    func conditionsHold(text: String, value: Double, previous: Double?, fires: Bool) throws {
        let condition = try AlertCondition(parsing: text)
        #expect(condition.holds(for: value, previous: previous) == fires)
        #expect(try AlertCondition(parsing: condition.description) == condition)
    }

    @Test(arguments: ["", "above", "above x", "above nan", "above inf", "change 20", "change -5%", "over 3", "above 1 2", "below 1e999"])
    func malformedConditionsAreRefused(text: String) {
        #expect(throws: TallyStoreError.self) { try AlertCondition(parsing: text) }
    }

    @Test(arguments: ["dau", "new_users", "event:bill_created", "segment:Pro users", "funnel:open,tap", "funnel:open,screen_view[screen==home]"])
    func metricsReadBackTheirText(text: String) throws {
        #expect(try AlertMetric(parsing: text).description == text)
    }

    @Test(arguments: ["", "daily", "event:", "funnel:open", "funnel:a,b,c,d,e,f,g,h,i,j,k", "kind:x", String(repeating: "x", count: 2_000)])
    func malformedMetricsAreRefused(text: String) {
        #expect(throws: TallyStoreError.self) { try AlertMetric(parsing: text) }
    }

    @Test(arguments: [
        "ftp://example.com/", "example.com/hook", "http://", "http://user:pass@example.com/", "javascript:alert(1)", "file:///etc/passwd",
    ])
    func webhooksAreHTTPURLsWithAHost(url: String) {
        #expect(throws: TallyStoreError.self) {
            try AlertRule(name: "r", metric: .headline(.dau), condition: .above(1), webhook: url, secret: "s")
        }
    }
}
