import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import TallyTracker
import Testing

@testable import TallyServer

/// `filters=` on the read routes, over a real server: the answer is the store's for the
/// same segment, and a filter that does not parse or names an unknown property is a 400.
@Suite("filters= on the metrics routes")
struct SegmentContractTests {
    /// Users a and b on iOS 1.0.0 and 1.1.0 with the plan pro, c on Android 1.0.0 with the
    /// plan free, d without a plan; `source` is an event property, `plan` a user property.
    static func populate(_ server: LiveServer, at now: Date) async throws -> NewApp {
        let app = try await server.makeApp()
        _ = try await server.store.apps.update(app.app.id, segmentProperties: SegmentProperties(event: ["source"], user: ["plan"]))
        let yesterday = now.addingTimeInterval(-86_400)
        let events = [
            Batch.event(name: "identify", at: yesterday, user: "a", ["properties": ["plan": "pro"]]),
            Batch.event(name: "identify", at: yesterday, user: "b", ["properties": ["plan": "pro"]]),
            Batch.event(name: "identify", at: yesterday, user: "c", ["properties": ["plan": "free"], "platform": "android"]),
            Batch.event(name: "bill_created", at: yesterday, user: "d", ["properties": ["source": "ad"]]),
            Batch.event(name: "bill_created", at: now, user: "a", ["properties": ["source": "ad"]]),
            Batch.event(name: "bill_created", at: now, user: "a", ["properties": ["source": "push"]]),
            Batch.event(name: "screen_view", at: now, user: "b", ["app_version": "1.1.0", "properties": ["screen": "Home"]]),
            Batch.event(name: "bill_created", at: now, user: "c", ["platform": "android", "properties": ["source": "ad"]]),
            Batch.event(name: "bill_created", at: now, user: "d", ["properties": [:] as [String: Any]]),
        ]
        let answer = try await server.ingest(Batch.body(events), key: app.ingestKey)
        #expect(answer.json["accepted"] as? Int == events.count)
        return app
    }

    static let filters = [
        "", "app_version==1.0.0", "app_version==1.1.0|2.0.0", "platform!=android", "plan==pro", "plan!=pro",
        "source==ad", "source==ad|push;platform==ios", "plan==pro;app_version==1.0.0", "platform==ios;platform!=ios",
        #"source==a\|b"#,
    ]

    @Test(arguments: TestDatabase.all) func filteredMetricsAreTheStoresAnswers(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let now = Date()
            let app = try await Self.populate(server, at: now)
            let (day, from) = (utcDay(now), utcDay(now.addingTimeInterval(-86_400)))
            let id = app.app.id
            for text in Self.filters {
                let filter = try SegmentFilter(parsing: text)
                let parameter = "&filters=" + percentEncoded(text)
                let answers: [(String, any Encodable)] = [
                    ("/v1/metrics?date=\(day)", try await server.store.metrics.day(ReadScope(app: id, day: CalendarDay(day)!, filter: filter))),
                    (
                        "/v1/metrics/range?from=\(from)&to=\(day)",
                        try await server.store.metrics.range(ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(day)!, filter: filter))
                    ),
                    (
                        "/v1/retention?from=\(from)&to=\(day)",
                        try await server.store.metrics.retention(ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(day)!, filter: filter))
                    ),
                    (
                        "/v1/metrics/breakdown?date=\(day)&event=bill_created&property=source",
                        try await server.store.metrics.breakdown(
                            event: "bill_created", by: "source", in: ReadScope(app: id, day: CalendarDay(day)!, filter: filter))
                    ),
                ]
                for (path, expected) in answers {
                    let response = try await server.body(path + parameter, token: app.readToken)
                    #expect(response.status == 200, "\(path) \(text)")
                    #expect(try canonical(response.body) == canonical(try JSONEncoder().encode(expected)), "\(path) \(text)")
                }
            }
            // Spot checks of the store's answers, so that equal answers are not both wrong.
            func dau(_ filter: String) async throws -> Int? {
                try await server.metrics("/v1/metrics?date=\(day)&filters=\(percentEncoded(filter))", token: app.readToken).json["dau"] as? Int
            }
            #expect(try await dau("") == 4)
            #expect(try await dau("plan==pro") == 2)
            #expect(try await dau("plan!=pro") == 2)
            #expect(try await dau("platform==android") == 1)
            #expect(try await dau("source==push") == 1)
            #expect(try await dau("app_version==1.1.0;plan==pro") == 1)
            let events = try await server.metrics("/v1/metrics?date=\(day)&filters=source%3D%3Dad", token: app.readToken).json["events"]
            #expect(events as? [String: Int] == ["bill_created": 2])
            let sources =
                try await server.metrics(
                    "/v1/metrics/breakdown?date=\(day)&event=bill_created&property=source&filters=plan%3D%3Dpro", token: app.readToken
                ).json["top"] as? [[String: Any]]
            #expect(sources?.map { $0["value"] as? String } == ["ad", "push"])
        }
    }

    @Test(arguments: TestDatabase.all) func malformedAndUnknownFiltersAre400sSayingWhy(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let routes = [
                "/v1/metrics?date=2026-11-22", "/v1/metrics/range?from=2026-11-01&to=2026-11-22", "/v1/retention?from=2026-11-01&to=2026-11-22",
                "/v1/metrics/breakdown?date=2026-11-22&event=a&property=b",
            ]
            for route in routes {
                for malformed in ["plan=pro", "plan", "==pro", "plan==pro;", #"plan==a\b"#, "plan==pro;;x==1"] {
                    var expected = ""
                    do throws(SegmentFilter.ParseError) { _ = try SegmentFilter(parsing: malformed) } catch { expected = error.description }
                    let response = try await server.metrics("\(route)&filters=\(percentEncoded(malformed))", token: app.readToken)
                    #expect(response.status == 400, "\(route) \(malformed)")
                    #expect(response.json["error"] as? String == expected, "\(route) \(malformed)")
                }
                let unknown = try await server.metrics("\(route)&filters=plan%3D%3Dpro", token: app.readToken)
                #expect(unknown.status == 400)
                #expect(unknown.json["error"] as? String == TallyStoreError.unknownFilterProperty("plan").description)
                let notUTF8 = try await server.metrics("\(route)&filters=platform%3D%3D%FF%FE", token: app.readToken)
                #expect(notUTF8.status == 400)
                #expect((notUTF8.json["error"] as? String)?.contains("UTF-8") == true)
                let badEscape = try await server.rawGet("\(route)&filters=platform%3D%3D%G1", token: app.readToken)
                #expect(badEscape.status == 400)
                #expect(badEscape.error == "filters has a % that is not followed by two hexadecimal digits")
                // 4,096 bytes are read, one more is refused before parsing.
                let longest = "platform==" + String(repeating: "x", count: QueryParameters.maximumBytes - 10)
                #expect(try await server.metrics("\(route)&filters=\(longest)", token: app.readToken).status == 200)
                let tooLong = try await server.metrics("\(route)&filters=\(longest)x", token: app.readToken)
                #expect(tooLong.status == 400)
                #expect(tooLong.json["error"] as? String == "filters is longer than 4096 bytes")
                // Past three times the limit in raw bytes, a value is refused before it is decoded.
                let huge = try await server.metrics("\(route)&filters=" + String(repeating: "%41", count: 4_200), token: app.readToken)
                #expect(huge.status == 400)
                #expect(huge.json["error"] as? String == "filters is longer than 4096 bytes")
            }
            #expect(try await server.request("/healthz").status == 200)
        }
    }

    /// The SDK's `identify` with properties sets the user property that a filter then selects.
    @Test(arguments: TestDatabase.all) func theSDKsIdentifySetsUserPropertiesThatFiltersSee(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            _ = try await server.store.apps.update(app.app.id, segmentProperties: SegmentProperties(user: ["plan"]))
            for (user, plan) in [("user-1", "pro"), ("user-2", "free"), ("user-3", nil)] {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: folder) }
                var configuration = Tracker.Configuration(endpoint: server.url, appKey: app.ingestKey, storageDirectory: folder)
                configuration.tracksAppLifecycle = false
                configuration.isDebug = false
                let tracker = try Tracker(configuration: configuration)
                tracker.identify(user, properties: plan.map { ["plan": PropertyValue.string($0)] } ?? [:])
                tracker.track("bill_created")
                #expect(await tracker.flush().sent == (plan == nil ? 1 : 2))
            }
            let day = utcDay(Date())
            let pro = try await server.metrics("/v1/metrics?date=\(day)&filters=plan%3D%3Dpro", token: app.readToken).json
            #expect(pro["dau"] as? Int == 1)
            #expect(pro["events"] as? [String: Int] == ["identify": 1, "bill_created": 1])
            let others = try await server.metrics("/v1/metrics?date=\(day)&filters=plan!%3Dpro", token: app.readToken).json
            #expect(others["dau"] as? Int == 2)
        }
    }
}

/// `text` with every character but ASCII letters and digits percent-encoded.
func percentEncoded(_ text: String) -> String {
    var allowed = CharacterSet()
    allowed.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    return text.addingPercentEncoding(withAllowedCharacters: allowed)!
}

/// The JSON document `data` with its keys sorted, to compare two answers.
func canonical(_ data: Data) throws -> String {
    let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
}

extension LiveServer {
    /// GETs `path` with `token` as the bearer token, and returns the status and the body.
    func body(_ path: String, token: String) async throws -> (status: Int, body: Data) {
        let response = try await request(path, headers: ["Authorization": "Bearer \(token)"])
        return (response.status, response.body)
    }
}
