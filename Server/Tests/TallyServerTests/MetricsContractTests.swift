import Foundation
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

@Suite("GET /v1/metrics contract")
struct MetricsContractTests {
    @Test(arguments: TestDatabase.all) func dayMetricsHaveTheContractKeysAndValues(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            let events = [
                Batch.event(name: "screen_view", at: now, user: "a", ["properties": ["screen": "Home"]]),
                Batch.event(name: "screen_view", at: now, user: "b", ["properties": ["screen": "Home"]]),
                Batch.event(name: "bill_created", at: now, user: "a"),
                Batch.event(name: "bill_created", at: now, user: "a"),
                Batch.event(name: "bill_created", at: now, user: "b"),
            ]
            _ = try await server.ingest(Batch.body(events), key: app.ingestKey)
            let day = utcDay(now)
            let response = try await server.metrics("/v1/metrics?date=\(day)", token: app.readToken)
            #expect(response.status == 200)
            let json = response.json
            #expect(Set(json.keys) == ["date", "tz", "dau", "wau", "mau", "new_users", "events", "per_user", "versions", "screens"])
            #expect(json["date"] as? String == day)
            #expect(json["tz"] as? String == "UTC")
            #expect(json["dau"] as? Int == 2)
            #expect(json["new_users"] as? Int == 2)
            #expect((json["events"] as? [String: Int]) == ["screen_view": 2, "bill_created": 3])
            let bills = try #require((json["per_user"] as? [String: [String: Any]])?["bill_created"])
            #expect(bills["avg"] as? Double == 1.5)
            #expect(bills["max"] as? Int == 2)
            #expect((json["screens"] as? [String: Int]) == ["Home": 2])
            #expect((json["versions"] as? [String: Int]) == ["1.0.0": 2])
        }
    }

    @Test(arguments: TestDatabase.all) func theDayBoundaryFollowsTheRequestedTimeZone(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp(timeZone: "Asia/Shanghai")
            // 17:30 UTC yesterday is already today in Shanghai (UTC+8).
            let calendar = Calendar(identifier: .gregorian)
            var utc = calendar
            utc.timeZone = TimeZone(identifier: "UTC")!
            let yesterday = utc.date(byAdding: .day, value: -1, to: utc.startOfDay(for: Date()))!
            let instant = yesterday.addingTimeInterval(17.5 * 3600)
            _ = try await server.ingest(Batch.body([Batch.event(at: instant)], sentAt: Date()), key: app.ingestKey)
            let dayInUTC = utcDay(instant)
            let dayInShanghai = utcDay(instant.addingTimeInterval(8 * 3600))
            let inUTC = try await server.metrics("/v1/metrics?date=\(dayInUTC)&tz=UTC", token: app.readToken)
            let inShanghai = try await server.metrics("/v1/metrics?date=\(dayInShanghai)", token: app.readToken)
            let shanghaiOnUTCDay = try await server.metrics("/v1/metrics?date=\(dayInUTC)", token: app.readToken)
            #expect(inUTC.json["dau"] as? Int == 1)
            #expect(inShanghai.json["dau"] as? Int == 1)
            #expect(inShanghai.json["tz"] as? String == "Asia/Shanghai")
            #expect(shanghaiOnUTCDay.json["dau"] as? Int == 0)
        }
    }

    @Test(arguments: TestDatabase.all) func rangeGivesDailySeries(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            _ = try await server.ingest(Batch.body([Batch.event(at: now), Batch.event(at: now.addingTimeInterval(-86_400))]), key: app.ingestKey)
            let from = utcDay(now.addingTimeInterval(-2 * 86_400))
            let to = utcDay(now)
            let response = try await server.metrics("/v1/metrics/range?from=\(from)&to=\(to)", token: app.readToken)
            #expect(response.status == 200)
            #expect(response.json["dau"] as? [Int] == [0, 1, 1])
            #expect((response.json["events"] as? [String: [Int]])?["bill_created"] == [0, 1, 1])
            #expect((response.json["dates"] as? [String])?.count == 3)
        }
    }

    @Test(arguments: TestDatabase.all) func breakdownGivesEventsAndUsersPerValue(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            _ = try await server.ingest(
                Batch.body([
                    Batch.event(name: "upgrade", at: now, user: "a", ["properties": ["plan": "pro"]]),
                    Batch.event(name: "upgrade", at: now, user: "b", ["properties": ["plan": "pro"]]),
                    Batch.event(name: "upgrade", at: now, user: "a", ["properties": ["plan": "free"]]),
                    Batch.event(name: "upgrade", at: now, user: "c", ["properties": [:] as [String: Any]]),
                    Batch.event(name: "login", at: now, user: "d", ["properties": ["plan": "pro"]]),
                ]),
                key: app.ingestKey)
            let path = "/v1/metrics/breakdown?date=\(utcDay(now))&event=upgrade&property=plan"
            let response = try await server.metrics(path, token: app.readToken)
            #expect(response.status == 200)
            #expect(Set(response.json.keys) == ["top", "other_values", "other_events", "other_users", "missing"])
            let top = try #require(response.json["top"] as? [[String: Any]])
            #expect(top.map { $0["value"] as? String } == ["pro", "free"])
            #expect(top.map { $0["events"] as? Int } == [2, 1])
            #expect(top.map { $0["users"] as? Int } == [2, 1])
            #expect(response.json["missing"] as? Int == 1)
            #expect(response.json["other_values"] as? Int == 0)
            let missing = try await server.metrics("/v1/metrics/breakdown?date=\(utcDay(now))&event=upgrade", token: app.readToken)
            #expect(missing.status == 400)
        }
    }

    /// Two users first seen two days ago, one back yesterday, both back today; one new user
    /// yesterday who does not come back.
    @Test(arguments: TestDatabase.all) func retentionGivesCohortsAndShares(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            let day = 86_400.0
            _ = try await server.ingest(
                Batch.body([
                    Batch.event(at: now.addingTimeInterval(-2 * day), user: "a"), Batch.event(at: now.addingTimeInterval(-2 * day), user: "b"),
                    Batch.event(at: now.addingTimeInterval(-day), user: "a"), Batch.event(at: now.addingTimeInterval(-day), user: "c"),
                    Batch.event(at: now, user: "a"), Batch.event(at: now, user: "b"),
                ]),
                key: app.ingestKey)
            let (from, to) = (utcDay(now.addingTimeInterval(-2 * day)), utcDay(now))
            let response = try await server.metrics("/v1/retention?from=\(from)&to=\(to)", token: app.readToken)
            #expect(response.status == 200)
            #expect(Set(response.json.keys) == ["from", "to", "tz", "period", "cohorts"])
            #expect(response.json["period"] as? String == "day")
            let cohorts = try #require(response.json["cohorts"] as? [[String: Any]])
            #expect(cohorts.map { $0["start"] as? String } == [from, utcDay(now.addingTimeInterval(-day)), to])
            #expect(cohorts.map { $0["size"] as? Int } == [2, 1, 0])
            #expect(cohorts.map { $0["returning"] as? [Int] } == [[1, 2], [0], []])
            #expect(cohorts[0]["shares"] as? [Double] == [0.5, 1])
            #expect(cohorts[2]["shares"] == nil, "an empty cohort has no shares")

            let weekly = try await server.metrics("/v1/retention?from=\(from)&to=\(to)&period=week", token: app.readToken)
            #expect(weekly.status == 200)
            #expect(weekly.json["period"] as? String == "week")
            let weeks = try #require(weekly.json["cohorts"] as? [[String: Any]])
            #expect(weeks.map { $0["size"] as? Int ?? 0 }.reduce(0, +) == 3)
        }
    }

    @Test(arguments: TestDatabase.all) func badRequestsGetClearErrors(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let cases: [(String, String?, Int)] = [
                ("/v1/metrics?date=2026-11-22", nil, 401),
                ("/v1/metrics?date=2026-11-22", "rt_wrong", 401),
                ("/v1/metrics", app.readToken, 400),
                ("/v1/metrics?date=2026-02-30", app.readToken, 400),
                ("/v1/metrics?date=2026-11-22&tz=Mars/Olympus", app.readToken, 400),
                ("/v1/metrics/range?from=2026-11-22&to=2026-11-01", app.readToken, 400),
                ("/v1/metrics/range?from=2026-11-22", app.readToken, 400),
                ("/v1/retention?from=2026-11-01&to=2026-11-22", "rt_wrong", 401),
                ("/v1/retention?from=2026-11-01", app.readToken, 400),
                ("/v1/retention?from=2026-11-22&to=2026-11-01", app.readToken, 400),
                ("/v1/retention?from=2000-01-01&to=2026-11-01", app.readToken, 400),
                ("/v1/retention?from=2026-11-01&to=2026-11-22&period=month", app.readToken, 400),
                ("/v1/retention?from=2026-11-01&to=2026-11-22&tz=Mars/Olympus", app.readToken, 400),
            ]
            for (path, token, status) in cases {
                let response = try await server.metrics(path, token: token)
                #expect(response.status == status, "\(path)")
                #expect((response.json["error"] as? String)?.isEmpty == false, "\(path)")
            }
        }
    }

    /// Every read route refuses text that names no day, saying which, before any read.
    @Test func textThatNamesNoDayIsRefused() async throws {
        try await LiveServer.with(database: .sqlite) { server in
            let app = try await server.makeApp()
            let texts = [
                "", "2026-3-01", "2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-01-32", "2026/01/01",
                "2026-01-01T00:00", "２０２６-01-01", "-026-01-01", "abcd-ef-gh",
            ]
            for text in texts {
                let encoded = try #require(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                for path in [
                    "/v1/metrics?date=\(encoded)", "/v1/metrics/range?from=2026-01-01&to=\(encoded)", "/v1/revenue?from=\(encoded)&to=2026-01-01",
                ] {
                    let response = try await server.metrics(path, token: app.readToken)
                    #expect(response.status == 400, "\(path)")
                    #expect(response.json["error"] as? String == TallyStoreError.invalidDate(text).description, "\(path)")
                }
            }
        }
    }

    @Test(arguments: TestDatabase.all) func healthz(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let response = try await server.request("/healthz")
            #expect(response.status == 200)
        }
    }
}

@Suite("Events from debug builds")
struct DebugEventsContractTests {
    /// An SDK's debug build marks its events; the metrics show production unless asked for
    /// `debug=true`.
    @Test(arguments: TestDatabase.all) func theMetricsShowDebugBuildsOnlyWhenAsked(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            let events = [
                Batch.event(name: "open", at: now, user: "a"), Batch.event(name: "open", at: now, user: "dev", ["debug": true]),
                Batch.event(name: "tap", at: now, user: "dev", ["debug": true]), Batch.event(name: "open", at: now, user: "b", ["debug": false]),
            ]
            let stored = try await server.ingest(Batch.body(events), key: app.ingestKey)
            #expect(stored.json["accepted"] as? Int == 4)
            let day = utcDay(now)
            let production = try await server.metrics("/v1/metrics?date=\(day)", token: app.readToken).json
            #expect(production["dau"] as? Int == 2)
            #expect((production["events"] as? [String: Int]) == ["open": 2])
            let debug = try await server.metrics("/v1/metrics?date=\(day)&debug=true", token: app.readToken).json
            #expect(debug["dau"] as? Int == 1)
            #expect((debug["events"] as? [String: Int]) == ["open": 1, "tap": 1])
            #expect(try await server.metrics("/v1/metrics?date=\(day)&debug=yes", token: app.readToken).status == 400)
            let wrong = try await server.ingest(Batch.body([Batch.event(["debug": "true"])]), key: app.ingestKey).json
            #expect((wrong["rejected"] as? [[String: Any]])?.first?["index"] as? Int == 0)
        }
    }
}
