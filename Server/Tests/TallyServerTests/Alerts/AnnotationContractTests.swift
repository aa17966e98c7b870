import Foundation
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// `GET`, `POST /v1/annotations` and `DELETE /v1/annotations/{id}` over a real server.
@Suite("/v1/annotations contract")
struct AnnotationContractTests {
    @Test(arguments: TestDatabase.all) func annotationsAreAddedListedAndDeleted(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            _ = try await server.store.apps.update(app.app.id, timeZone: "America/New_York")
            let added = try await server.annotate(#"{"time": "2026-03-08T06:30:00Z", "text": "v2.3 released"}"#, token: app.writeToken)
            #expect(added.status == 201)
            #expect(Set(added.json.allKeys as? [String] ?? []) == ["id", "time", "text", "created_at"])
            #expect(added.json["time"] as? String == "2026-03-08T06:30:00.000Z" && added.json["text"] as? String == "v2.3 released")
            // A day is its start in the app's time zone: 2026-03-08 begins at 05:00 UTC in New York.
            let day = try await server.annotate(#"{"day": "2026-03-08", "text": "campaign"}"#, token: app.writeToken)
            #expect(day.status == 201 && day.json["time"] as? String == "2026-03-08T05:00:00.000Z")

            // The read token reads; days of the app's zone, `to` included, or instants.
            let list = try await server.annotations("from=2026-03-08&to=2026-03-08", token: app.readToken)
            #expect(list.status == 200)
            #expect((list.json["annotations"] as? [[String: Any]])?.map { $0["text"] as? String } == ["campaign", "v2.3 released"])
            let narrow = try await server.annotations("from=2026-03-08T06:00:00Z&to=2026-03-08T07:00:00Z", token: app.writeToken)
            #expect((narrow.json["annotations"] as? [[String: Any]])?.map { $0["text"] as? String } == ["v2.3 released"])
            #expect(
                (try await server.annotations("from=2026-03-09&to=2026-03-10", token: app.readToken).json["annotations"] as? [Any])?.isEmpty == true)

            let id = try #require(added.json["id"] as? Int)
            let bearer = { (token: String) in ["Authorization": "Bearer \(token)"] }
            #expect(try await server.request("/v1/annotations/\(id)", method: "DELETE", headers: bearer(app.readToken)).status == 401)
            #expect(try await server.request("/v1/annotations/\(id)", method: "DELETE", headers: bearer(app.writeToken)).status == 204)
            #expect(try await server.request("/v1/annotations/\(id)", method: "DELETE", headers: bearer(app.writeToken)).status == 404)
            #expect(try await server.request("/v1/annotations/x", method: "DELETE", headers: bearer(app.writeToken)).status == 400)
        }
    }

    /// Only the app's write token adds; another app's token never reaches this app's notes.
    @Test func theReadTokenCannotWrite() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let other = try await server.makeApp()
            let body = #"{"time": "2026-03-08T06:30:00Z", "text": "x"}"#
            #expect(try await server.annotate(body, token: app.readToken).status == 401)
            #expect(try await server.annotate(body, token: app.ingestKey).status == 401)
            #expect(try await server.request("/v1/annotations", method: "POST", body: Data(body.utf8)).status == 401)
            #expect(try await server.annotate(body, token: other.writeToken).status == 201)
            let mine = try await server.annotations("from=2026-03-01&to=2026-03-31", token: app.readToken)
            #expect((mine.json["annotations"] as? [Any])?.isEmpty == true)
            #expect(try await server.annotations("from=2026-03-01&to=2026-03-31", token: "nope").status == 401)
        }
    }

    @Test(arguments: [
        Sample("no body", ""), Sample("not JSON", "text=x"), Sample("an array", "[]"), Sample("no text", #"{"time": "2026-03-08T06:30:00Z"}"#),
        Sample("no time", #"{"text": "x"}"#), Sample("both time and day", #"{"time": "2026-03-08T06:30:00Z", "day": "2026-03-08", "text": "x"}"#),
        Sample("a number as time", #"{"time": 1772951400, "text": "x"}"#),
        Sample("a time without zone", #"{"time": "2026-03-08T06:30:00", "text": "x"}"#),
        Sample("a bad day", #"{"day": "2026-02-30", "text": "x"}"#), Sample("an empty text", #"{"day": "2026-03-08", "text": "  "}"#),
        Sample("a text of 281 characters", #"{"day": "2026-03-08", "text": "\#(String(repeating: "é", count: 281))"}"#),
        Sample("a control character", #"{"day": "2026-03-08", "text": "a\u0007b"}"#),
        Sample("a NUL", #"{"day": "2026-03-08", "text": "a\u0000b"}"#), Sample("a year 10000", #"{"time": "10000-01-01T00:00:00Z", "text": "x"}"#),
        Sample("null text", #"{"day": "2026-03-08", "text": null}"#),
    ])
    func badBodiesAreA400(body: Sample) async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let answer = try await server.annotate(body.text, token: app.writeToken)
            #expect(answer.status == 400, "\(body)")
            #expect((answer.json["error"] as? String)?.isEmpty == false, "\(body)")
            let all = try await server.store.annotations.list(app: app.app.id, from: .distantPast, to: .distantFuture)
            #expect(all.isEmpty, "\(body)")
        }
    }

    @Test(arguments: [
        Sample("no range", ""), Sample("no to", "from=2026-03-01"), Sample("a bad day", "from=2026-13-01&to=2026-03-02"),
        Sample("words", "from=yesterday&to=today"), Sample("from after to", "from=2026-03-05&to=2026-03-01"),
        Sample("a broken escape", "from=2026-03-01%ZZ&to=2026-03-02"),
    ])
    func badRangesAreA400(query: Sample) async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            #expect(try await server.annotations(query.text, token: app.readToken).status == 400, "\(query)")
        }
    }

    @Test func aHugeBodyIsA413() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let huge = #"{"day": "2026-03-08", "text": "\#(String(repeating: "a", count: 20_000))"}"#
            #expect(try await server.annotate(huge, token: app.writeToken).status == 413)
        }
    }
}

extension LiveServer {
    /// `POST /v1/annotations` with `body` and `token`.
    func annotate(_ body: String, token: String) async throws -> (status: Int, json: NSDictionary) {
        let response = try await request(
            "/v1/annotations", method: "POST", headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: Data(body.utf8))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? NSDictionary ?? [:])
    }

    /// `GET /v1/annotations?<query>` with `token`.
    func annotations(_ query: String, token: String) async throws -> (status: Int, json: NSDictionary) {
        let response = try await request("/v1/annotations?\(query)", headers: ["Authorization": "Bearer \(token)"])
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? NSDictionary ?? [:])
    }
}
