import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// `GET /v1/funnels` over a real server: the store's ``Funnel`` as JSON, and a 400 for
/// anything out of its bounds, whatever a client sends.
@Suite("GET /v1/funnels contract")
struct FunnelContractTests {
    /// Five days ago, at 01:00 UTC: every chain starts that day.
    static func start(_ now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.startOfDay(for: now).addingTimeInterval(-5 * 86_400 + 3_600)
    }

    /// a: opens the app on iOS, buys a minute later (from an ad); b: opens on iOS, buys two
    /// days later; c: opens on Android, buys two minutes later (from a push); d: only buys.
    static func populate(_ server: LiveServer, at start: Date) async throws -> NewApp {
        let app = try await server.makeApp()
        _ = try await server.store.apps.update(app.app.id, segmentProperties: SegmentProperties(event: ["source"]))
        let android: [String: Any] = ["platform": "android"]
        let events = [
            Batch.event(name: "app_opened", at: start, user: "a"),
            Batch.event(name: "purchase", at: start.addingTimeInterval(60), user: "a", ["properties": ["source": "ad"]]),
            Batch.event(name: "app_opened", at: start, user: "b"),
            Batch.event(name: "purchase", at: start.addingTimeInterval(2 * 86_400), user: "b", ["properties": ["source": "ad"]]),
            Batch.event(name: "app_opened", at: start.addingTimeInterval(10), user: "c", android),
            Batch.event(
                name: "purchase", at: start.addingTimeInterval(130), user: "c", android.merging(["properties": ["source": "push"]]) { $1 }),
            Batch.event(name: "purchase", at: start, user: "d"),
        ]
        let answer = try await server.ingest(Batch.body(events), key: app.ingestKey)
        #expect(answer.json["accepted"] as? Int == events.count)
        return app
    }

    @Test(arguments: TestDatabase.all) func aFunnelIsTheStoresAnswer(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let start = Self.start(Date())
            let app = try await Self.populate(server, at: start)
            let day = utcDay(start)
            let cases: [(query: String, steps: String, window: Int, filter: String, breakdown: String?, users: [Int])] = [
                ("", "app_opened,purchase", 86_400, "", nil, [3, 2]),
                ("&window=259200", "app_opened,purchase", 259_200, "", nil, [3, 3]),
                ("&window=30", "app_opened,purchase", 30, "", nil, [3, 0]),
                ("&filters=platform%3D%3Dios", "app_opened,purchase", 86_400, "platform==ios", nil, [2, 1]),
                ("&breakdown=platform", "app_opened,purchase", 86_400, "", "platform", [3, 2]),
                ("&tz=UTC&debug=false", "app_opened,purchase", 86_400, "", nil, [3, 2]),
            ]
            for (query, steps, window, filter, breakdown, users) in cases {
                let response = try await server.body(
                    "/v1/funnels?from=\(day)&to=\(day)&steps=\(percentEncoded(steps))\(query)", token: app.readToken)
                #expect(response.status == 200, "\(query)")
                let expected = try await server.store.metrics.funnel(
                    try FunnelStep.steps(parsing: steps), window: window, breakdown: breakdown,
                    in: ReadScope(app: app.app.id, days: CalendarDay(day)!...CalendarDay(day)!, filter: try SegmentFilter(parsing: filter)))
                #expect(expected.steps.map(\.users) == users, "\(query)")
                #expect(try canonical(response.body) == canonical(try JSONEncoder().encode(expected)), "\(query)")
            }

            let plain = try await server.metrics("/v1/funnels?from=\(day)&to=\(day)&steps=app_opened,purchase", token: app.readToken).json
            #expect(Set(plain.keys) == ["from", "to", "tz", "window", "steps"])
            #expect(plain["window"] as? Int == 86_400)
            #expect(plain["tz"] as? String == "UTC")
            let steps = try #require(plain["steps"] as? [[String: Any]])
            #expect(steps.map { $0["event"] as? String } == ["app_opened", "purchase"])
            #expect(steps[0]["median_seconds"] is NSNull)
            #expect((steps[1]["median_seconds"] as? Double).map { $0 > 0 } == true)

            let conditioned = try await server.metrics(
                "/v1/funnels?from=\(day)&to=\(day)&steps=\(percentEncoded("app_opened,purchase[source==ad]"))", token: app.readToken
            ).json
            #expect((conditioned["steps"] as? [[String: Any]])?.map { $0["users"] as? Int } == [3, 1])
            #expect((conditioned["steps"] as? [[String: Any]])?.last?["event"] as? String == "purchase[source==ad]")

            let broken = try await server.metrics(
                "/v1/funnels?from=\(day)&to=\(day)&steps=app_opened,purchase&breakdown=platform", token: app.readToken
            ).json
            #expect(broken["breakdown_property"] as? String == "platform")
            let segments = try #require(broken["breakdown"] as? [[String: Any]])
            #expect(segments.map { $0["value"] as? String } == ["ios", "android"])
            #expect(segments.map { ($0["steps"] as? [[String: Any]])?.map { $0["users"] as? Int } } == [[2, 1], [1, 1]])
        }
    }

    @Test(arguments: TestDatabase.all) func unknownPropertiesAndMissingTokensAreRefused(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let path = "/v1/funnels?from=2026-11-01&to=2026-11-02&steps=a,b"
            #expect(try await server.metrics(path, token: nil).status == 401)
            #expect(try await server.metrics(path, token: "rt_wrong").status == 401)
            #expect(try await server.metrics(path, token: app.readToken).status == 200)
            let cases: [(String, String)] = [
                ("&breakdown=plan", "Unknown breakdown property \"plan\""),
                ("&filters=plan%3D%3Dpro", "Unknown filter property \"plan\""),
                ("&filters=plan%3Dpro", "Invalid filter \"plan=pro\""),
            ]
            for (query, message) in cases {
                let response = try await server.metrics(path + query, token: app.readToken)
                #expect(response.status == 400, "\(query)")
                #expect((response.json["error"] as? String)?.hasPrefix(message) == true, "\(query): \(response.json)")
            }
            // A step's condition is checked once its event name is known to the store.
            _ = try await server.ingest(
                Batch.body([Batch.event(name: "a"), Batch.event(name: "b")]), key: app.ingestKey)
            let condition = try await server.metrics(
                "/v1/funnels?from=2026-11-01&to=2026-11-02&steps=\(percentEncoded("a,b[plan==pro]"))", token: app.readToken)
            #expect(condition.status == 400)
            #expect((condition.json["error"] as? String)?.contains("plan") == true)
        }
    }

    /// Whatever a client puts in the query, the answer is a 400 saying what is wrong, and the
    /// server goes on answering.
    @Test(arguments: TestDatabase.all) func hostileQueriesAre400sNeverACrash(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let days = "from=2026-11-01&to=2026-11-02"
            let eleven = (1...11).map { "e\($0)" }.joined(separator: ",")
            let ten = (1...10).map { "e\($0)" }.joined(separator: ",")
            #expect(try await server.metrics("/v1/funnels?\(days)&steps=\(ten)", token: app.readToken).status == 200)
            let queries: [(String, String)] = [
                ("window=99999999999999999999999999999999", "window must be"), ("window=9223372036854775807", "window must be"),
                ("window=-9223372036854775808", "window must be"), ("window=-99999999999999999999999", "window must be"),
                ("window=-1", "window must be"), ("window=0", "window must be"), ("window=7776001", "window must be"),
                ("window=", "window must be"), ("window=1e5", "window must be"), ("window=86400.5", "window must be"),
                ("window=%FF", "window is not UTF-8"), ("window=" + String(repeating: "9", count: 5_000), "window is longer"),
                ("steps=\(eleven)", "a funnel has 2 to 10 steps"), ("steps=a", "a funnel has 2 to 10 steps"),
                ("steps=", "Invalid steps"), ("steps=,", "Invalid steps"), ("steps=a,,b", "Invalid steps"),
                ("steps=a,%FF%FE", "steps is not UTF-8"), ("steps=a,%C3%28", "steps is not UTF-8"), ("steps=a,%ED%A0%80", "steps is not UTF-8"),
                ("steps=a,\(percentEncoded("b[x==1"))", "Invalid steps"), ("steps=a,\(percentEncoded("b[x=1]"))", "Invalid steps"),
                ("steps=a,\(String(repeating: "b", count: 101))", "step 2 must name"), ("steps=a,%00", "step 2 must name"),
                ("steps=" + String(repeating: "a,", count: 3_000) + "a", "steps is longer"),
                ("breakdown=", "breakdown must name"), ("breakdown=%FF", "breakdown is not UTF-8"),
                ("tz=Mars/Olympus", "Unknown time zone"), ("debug=maybe", "debug must be"),
            ]
            for (parameter, message) in queries {
                let query = parameter.hasPrefix("steps=") ? "\(days)&\(parameter)" : "\(days)&steps=a,b&\(parameter)"
                let response = try await server.metrics("/v1/funnels?\(query)", token: app.readToken)
                #expect(response.status == 400, "\(parameter.prefix(60))")
                #expect((response.json["error"] as? String)?.hasPrefix(message) == true, "\(parameter.prefix(60)): \(response.json)")
            }
            // A % that escapes nothing: URLSession would encode it as %25, so the request is sent raw.
            for steps in ["a,b%", "a%zz,b", "a%2,b", "a,%E2%82"] {
                let response = try await server.rawGet("/v1/funnels?\(days)&steps=\(steps)", token: app.readToken)
                #expect(response.status == 400, "\(steps)")
                let expected =
                    steps.hasSuffix("%E2%82")
                    ? "steps is not UTF-8 once percent-decoded" : "steps has a % that is not followed by two hexadecimal digits"
                #expect(response.error == expected, "\(steps)")
            }
            for missing in ["from=2026-11-01&steps=a,b", "to=2026-11-01&steps=a,b", days] {
                #expect(try await server.metrics("/v1/funnels?\(missing)", token: app.readToken).status == 400, "\(missing)")
            }
            for range in ["from=2026-11-02&to=2026-11-01", "from=2000-01-01&to=2026-11-01", "from=2026-02-30&to=2026-03-01"] {
                #expect(try await server.metrics("/v1/funnels?\(range)&steps=a,b", token: app.readToken).status == 400, "\(range)")
            }
            #expect(try await server.request("/healthz").status == 200)
        }
    }
}

extension LiveServer {
    /// Sends `GET path` with `token` as written, over a connection of its own, and returns
    /// the status and the `error` of the JSON answer: for requests URLSession would rewrite.
    func rawGet(_ path: String, token: String) async throws -> (status: Int?, error: String?) {
        let connection = try await RawConnection.open(to: self)
        let answer = try await connection.send(
            "GET \(path) HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n", readingUntil: .closed)
        let status = Int(answer.dropFirst("HTTP/1.1 ".count).prefix(3))
        let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        return (status, json?["error"] as? String)
    }
}
