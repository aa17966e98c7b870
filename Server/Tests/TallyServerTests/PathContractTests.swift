import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// `GET /v1/paths` over a real server: the store's ``Paths`` as JSON, and a 400 for anything
/// out of its bounds, whatever a client sends.
@Suite("GET /v1/paths contract")
struct PathContractTests {
    /// Sessions of three users, five days ago: a and b go Home → Bill editor → Home (b on
    /// Android), c opens the Bill editor and leaves; a's second session starts at the editor.
    static func populate(_ server: LiveServer, at start: Date) async throws -> NewApp {
        let app = try await server.makeApp()
        func screen(_ name: String, _ seconds: Double, _ user: String, _ session: String, _ platform: String = "ios") -> [String: Any] {
            Batch.event(
                name: "screen_view", at: start.addingTimeInterval(seconds), user: user,
                ["session_id": session, "platform": platform, "properties": ["screen": name]])
        }
        let events = [
            screen("Home", 0, "a", "a1"), screen("Bill editor", 10, "a", "a1"), screen("Home", 20, "a", "a1"),
            screen("Bill editor", 3_600, "a", "a2"),
            screen("Home", 0, "b", "b1", "android"), screen("Bill editor", 5, "b", "b1", "android"), screen("Home", 9, "b", "b1", "android"),
            screen("Bill editor", 0, "c", "c1"),
        ]
        let answer = try await server.ingest(Batch.body(events), key: app.ingestKey)
        #expect(answer.json["accepted"] as? Int == events.count)
        return app
    }

    @Test(arguments: TestDatabase.all) func pathsAreTheStoresAnswer(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let start = FunnelContractTests.start(Date())
            let app = try await Self.populate(server, at: start)
            let day = utcDay(start)
            let editor = percentEncoded("Bill editor")
            let cases: [(query: String, kind: Paths.Kind, direction: Paths.Direction, depth: Int, filter: String, sessions: Int)] = [
                ("&kind=screen", .screen, .after, 3, "", 4),
                ("&kind=screen&direction=before&depth=1", .screen, .before, 1, "", 4),
                ("&kind=screen&depth=5&filters=platform%3D%3Dandroid", .screen, .after, 5, "platform==android", 1),
                ("&kind=event&tz=UTC&debug=false", .event, .after, 3, "", 0),
            ]
            for (query, kind, direction, depth, filter, sessions) in cases {
                let response = try await server.body("/v1/paths?from=\(day)&to=\(day)&start=\(editor)\(query)", token: app.readToken)
                #expect(response.status == 200, "\(query)")
                let expected = try await server.store.metrics.paths(
                    from: "Bill editor", kind: kind, direction: direction, depth: depth,
                    in: ReadScope(app: app.app.id, days: CalendarDay(day)!...CalendarDay(day)!, filter: try SegmentFilter(parsing: filter)))
                #expect(expected.sessions == sessions, "\(query)")
                #expect(try canonical(response.body) == canonical(try JSONEncoder().encode(expected)), "\(query)")
            }
            let after = try await server.metrics("/v1/paths?from=\(day)&to=\(day)&start=\(editor)&kind=screen&depth=2", token: app.readToken).json
            #expect(Set(after.keys) == ["from", "to", "tz", "start", "kind", "direction", "sessions", "levels"])
            let levels = try #require(after["levels"] as? [[[String: Any]]])
            #expect(
                levels.map { $0.map { "\($0["step"] as? String ?? "?")=\($0["sessions"] as? Int ?? -1)" } } == [
                    ["$end=2", "Home=2"], ["$end=4"],
                ])
            let before = try await server.metrics(
                "/v1/paths?from=\(day)&to=\(day)&start=\(editor)&kind=screen&direction=before&depth=1", token: app.readToken
            ).json
            #expect((before["levels"] as? [[[String: Any]]])?.first?.map { $0["step"] as? String } == ["$start", "Home"])
        }
    }

    /// Whatever a client puts in the query, the answer is a 400 saying what is wrong, and the
    /// server goes on answering.
    @Test(arguments: TestDatabase.all) func hostileQueriesAre400sNeverACrash(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let days = "from=2026-11-01&to=2026-11-02"
            #expect(try await server.metrics("/v1/paths?\(days)&start=a", token: nil).status == 401)
            #expect(try await server.metrics("/v1/paths?\(days)&start=a&depth=5", token: app.readToken).status == 200)
            let queries: [(String, String)] = [
                ("depth=0", "depth must be"), ("depth=6", "depth must be"), ("depth=-1", "depth must be"), ("depth=", "depth must be"),
                ("depth=99999999999999999999999999", "depth must be"), ("depth=-9223372036854775808", "depth must be"),
                ("depth=2.5", "depth must be"), ("depth=%FF", "depth is not UTF-8"),
                ("kind=page", "kind must be event or screen"), ("kind=", "kind must be"), ("direction=up", "direction must be after or before"),
                ("start=", "start must name"), ("start=%00", "start must name"), ("start=\(String(repeating: "s", count: 101))", "start must name"),
                ("start=%C3%28", "start is not UTF-8"), ("start=" + String(repeating: "a", count: 5_000), "start is longer"),
                ("filters=plan%3D%3Dpro", "Unknown filter property \"plan\""), ("filters=plan%3Dpro", "Invalid filter"),
                ("tz=Mars/Olympus", "Unknown time zone"), ("debug=maybe", "debug must be"),
            ]
            for (parameter, message) in queries {
                let query = parameter.hasPrefix("start=") ? "\(days)&\(parameter)" : "\(days)&start=a&\(parameter)"
                let response = try await server.metrics("/v1/paths?\(query)", token: app.readToken)
                #expect(response.status == 400, "\(parameter.prefix(60))")
                #expect((response.json["error"] as? String)?.hasPrefix(message) == true, "\(parameter.prefix(60)): \(response.json)")
            }
            for missing in ["from=2026-11-01&start=a", "to=2026-11-01&start=a", days] {
                #expect(try await server.metrics("/v1/paths?\(missing)", token: app.readToken).status == 400, "\(missing)")
            }
            for range in ["from=2026-11-02&to=2026-11-01", "from=2000-01-01&to=2026-11-01", "from=2026-02-30&to=2026-03-01"] {
                #expect(try await server.metrics("/v1/paths?\(range)&start=a", token: app.readToken).status == 400, "\(range)")
            }
            #expect(try await server.request("/healthz").status == 200)
        }
    }
}
