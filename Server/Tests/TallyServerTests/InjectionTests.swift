import Foundation
import TallyServer
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// Strings that break SQL, HTML, templates, shells and format functions, sent in every field
/// of an event and in every header and parameter the API reads: events are stored and read
/// back verbatim, on both databases, and nothing else changes.
@Suite("injection")
struct InjectionTests {
    static let payloads = [
        "'; DROP TABLE event; --", #"" OR "1"="1"#, "' OR 1=1 --", "1); SELECT pg_sleep(10); --", "$1", "$$ || $$", "?",
        "%s%n%x%d", "_%", #"\"#, #"\'"#, "<script>alert(1)</script>", "{{name}}", "${jndi:ldap://x}", "`id`", "$(id)",
        "../../etc/passwd", "\u{202E}reversed", "null", "😀 Ünïcödé", "a\r\nSet-Cookie: x=1", "\u{7F}\u{1}",
    ]

    @Test(arguments: TestDatabase.all) func injectionStringsInEveryFieldAreStoredVerbatim(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let events = Self.payloads.map { payload in
                Batch.event(
                    name: payload, user: payload,
                    ["session_id": payload, "app_version": payload, "platform": payload, "properties": [payload: payload, "screen": payload]])
            }
            let answer = try await server.ingest(Batch.body(events), key: app.ingestKey)
            #expect(answer.status == 200)
            #expect(answer.json["accepted"] as? Int == Self.payloads.count)
            let stored = try await server.storedEvents(app)
            #expect(stored.count == Self.payloads.count)
            for payload in Self.payloads {
                let event = try #require(stored.first { $0.name == payload }, "\(payload.debugDescription) not stored verbatim")
                #expect(event.userID == payload)
                #expect(event.sessionID == payload)
                #expect(event.appVersion == payload)
                #expect(event.platform == payload)
                #expect(event.properties == [payload: .string(payload), "screen": .string(payload)])
            }
            let day = Date().formatted(Date.ISO8601FormatStyle().year().month().day())
            let metrics = try await server.metrics("/v1/metrics?date=\(day)", token: app.readToken)
            #expect(metrics.status == 200)
            #expect((metrics.json["events"] as? [String: Int]).map { Set($0.keys) } == Set(Self.payloads))
            #expect((metrics.json["dau"] as? Int) == Self.payloads.count)
            for payload in Self.payloads {
                let name = payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let breakdown = try await server.metrics("/v1/metrics/breakdown?date=\(day)&event=\(name)&property=\(name)", token: app.readToken)
                let top = breakdown.json["top"] as? [[String: Any]] ?? []
                #expect(top.map { $0["value"] as? String } == [payload], "\(payload.debugDescription)")
            }
        }
    }

    @Test(arguments: TestDatabase.all) func injectionStringsInHeadersAndParametersAreRefusedAndChangeNothing(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            #expect(try await server.ingest(Batch.body([Batch.event()]), key: app.ingestKey).status == 200)
            for payload in Self.payloads {
                let header = payload.filter { $0.isASCII && !$0.isNewline && $0 != "\u{7F}" && $0 != "\u{1}" }
                #expect(try await server.ingest(Batch.body([Batch.event()]), key: header).status == 401, "\(payload.debugDescription)")
                #expect(try await server.metrics("/v1/metrics?date=2026-01-01", token: header).status == 401)
                let parameter = payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                for path in [
                    "/v1/metrics?date=\(parameter)", "/v1/metrics?date=2026-01-01&tz=\(parameter)",
                    "/v1/metrics/range?from=\(parameter)&to=2026-01-02",
                    "/v1/metrics/breakdown?date=2026-01-01&event=\(parameter)&property=\(parameter)",
                    "/v1/retention?from=\(parameter)&to=2026-01-02",
                ] {
                    let answer = try await server.metrics(path, token: app.readToken)
                    #expect(answer.status == 400 || answer.status == 200, "\(path) answered \(answer.status)")
                }
            }
            #expect(try await server.storedCount(app) == 1)
            #expect(try await server.store.apps.all().count == 1)
        }
    }
}
