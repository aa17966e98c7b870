import Foundation
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// `GET /v1/segments`, `PUT /v1/segments/{name}` and `DELETE /v1/segments/{name}` over a real
/// server: the store's saved segments of the token's app, and a 4xx naming what is wrong for
/// anything else a client sends.
@Suite("/v1/segments contract")
struct SavedSegmentContractTests {
    /// An app segmented by the event property `source`.
    static func makeApp(_ server: LiveServer) async throws -> NewApp {
        let app = try await server.makeApp()
        _ = try await server.store.apps.update(app.app.id, segmentProperties: SegmentProperties(event: ["source"]))
        return app
    }

    @Test(arguments: TestDatabase.all) func segmentsAreSavedListedReplacedAndDeleted(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await Self.makeApp(server)
            #expect((try await server.segments(token: app.readToken).json["segments"] as? [Any])?.isEmpty == true)

            let saved = try await server.saveSegment("Pro%20on%20iOS", #"{"filter": "platform==ios;source==ad|push"}"#, token: app.writeToken)
            #expect(saved.status == 200)
            #expect(Set(saved.json.allKeys as? [String] ?? []) == ["name", "filter", "created_at"])
            #expect(saved.json["name"] as? String == "Pro on iOS")
            #expect(saved.json["filter"] as? String == "platform==ios;source==ad|push")
            let created = try #require(saved.json["created_at"] as? String)
            #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(created) <= Date())
            // Every answer describes the store's segment.
            let stored = try #require(try await server.store.segments.saved(app: app.app.id).first)
            #expect(stored.filter == SegmentFilter([.is("platform", "ios"), .is("source", "ad", "push")]))

            // A name with a slash and an escaped filter, then the same name again.
            let odd = try await server.saveSegment(
                percentEncoded("a/b é"), #"{"filter": "source==x\\|y", "note": "ignored"}"#, token: app.writeToken)
            #expect(odd.status == 200 && odd.json["name"] as? String == "a/b é")
            let again = try await server.saveSegment("Pro%20on%20iOS", #"{"filter": "platform!=android"}"#, token: app.writeToken)
            #expect(again.status == 200 && again.json["created_at"] as? String == created)

            let list = try await server.segments(token: app.readToken)
            #expect(list.status == 200)
            let segments = try #require(list.json["segments"] as? [[String: Any]])
            #expect(segments.map { $0["name"] as? String } == ["Pro on iOS", "a/b é"])
            #expect(segments.map { $0["filter"] as? String } == ["platform!=android", "source==x\\|y"])

            let deleted = try await server.request(
                "/v1/segments/" + percentEncoded("a/b é"), method: "DELETE", headers: ["Authorization": "Bearer \(app.writeToken)"])
            #expect(deleted.status == 204 && deleted.body.isEmpty)
            let missing = try await server.request(
                "/v1/segments/" + percentEncoded("a/b é"), method: "DELETE", headers: ["Authorization": "Bearer \(app.writeToken)"])
            #expect(missing.status == 404)
            #expect(try await server.segments(token: app.readToken).json["segments"].map { ($0 as? [Any])?.count } == 1)
        }
    }

    /// Another app's token reads, replaces and deletes only that app's segments; no token or
    /// a wrong one is a 401, and so is the read token saving or deleting.
    @Test(arguments: TestDatabase.all) func aTokenReachesItsOwnAppsSegmentsOnly(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await Self.makeApp(server)
            let other = try await server.makeApp()
            #expect(try await server.saveSegment("Mine", #"{"filter": "source==ad"}"#, token: app.writeToken).status == 200)

            #expect(try await server.segments(token: other.readToken).json["segments"].map { ($0 as? [Any])?.count } == 0)
            let deleted = try await server.request(
                "/v1/segments/Mine", method: "DELETE", headers: ["Authorization": "Bearer \(other.writeToken)"])
            #expect(deleted.status == 404)
            // The other app has no `source` property: its own segment of the name cannot name it.
            #expect(try await server.saveSegment("Mine", #"{"filter": "source==ad"}"#, token: other.writeToken).status == 400)
            #expect(try await server.saveSegment("Mine", #"{"filter": "platform==ios"}"#, token: other.writeToken).status == 200)
            #expect(try await server.store.segments.saved(app: app.app.id).map(\.filter) == [SegmentFilter([.is("source", "ad")])])
            #expect(try await server.store.segments.saved(app: other.app.id).map(\.filter) == [SegmentFilter([.is("platform", "ios")])])

            for headers in [[:], ["Authorization": "Bearer nope"], ["Authorization": app.readToken], ["X-App-Key": app.ingestKey]] {
                #expect(try await server.request("/v1/segments", headers: headers).status == 401)
                let body = Data(#"{"filter": "platform==ios"}"#.utf8)
                #expect(try await server.request("/v1/segments/x", method: "PUT", headers: headers, body: body).status == 401)
                #expect(try await server.request("/v1/segments/Mine", method: "DELETE", headers: headers).status == 401)
            }
            // The read token reads, and cannot save nor delete: that takes the write token.
            let read = ["Authorization": "Bearer \(app.readToken)"]
            #expect(try await server.request("/v1/segments", headers: read).status == 200)
            #expect(try await server.segments(token: app.writeToken).status == 200)
            let body = Data(#"{"filter": "platform==ios"}"#.utf8)
            #expect(try await server.request("/v1/segments/x", method: "PUT", headers: read, body: body).status == 401)
            #expect(try await server.request("/v1/segments/Mine", method: "DELETE", headers: read).status == 401)
            #expect(try await server.store.segments.saved(app: app.app.id).count == 1)
        }
    }

    @Test(arguments: [
        Sample("an empty name", "%20%20"), Sample("a name of 65 characters", String(repeating: "x", count: 65)),
        Sample("a huge name", String(repeating: "x", count: 4_000)), Sample("a control character", "a%0Ab"),
        Sample("NUL", "a%00b"), Sample("invalid UTF-8", "%FF%FE"), Sample("a truncated UTF-8 sequence", "caf%C3"),
        Sample("over 4,096 bytes", String(repeating: "%41", count: 4_097)),
    ])
    func badNamesAreA400(name: Sample) async throws {
        try await LiveServer.with { server in
            let app = try await Self.makeApp(server)
            let answer = try await server.saveSegment(name.text, #"{"filter": "platform==ios"}"#, token: app.writeToken)
            #expect(answer.status == 400, "\(name)")
            #expect((answer.json["error"] as? String)?.isEmpty == false)
            #expect(try await server.store.segments.saved(app: app.app.id).isEmpty)
            let deleted = try await server.request(
                "/v1/segments/\(name.text)", method: "DELETE", headers: ["Authorization": "Bearer \(app.writeToken)"])
            #expect([400, 404].contains(deleted.status), "\(name)")
        }
    }

    @Test(arguments: [
        Sample("no body", ""), Sample("not JSON", "filter=platform==ios"), Sample("an array", "[]"),
        Sample("no filter", #"{"name": "x"}"#), Sample("a number", #"{"filter": 3}"#), Sample("null", #"{"filter": null}"#),
        Sample("an empty filter", #"{"filter": ""}"#), Sample("a filter that does not parse", #"{"filter": "platform=ios"}"#),
        Sample("an unknown property", #"{"filter": "country==fr"}"#),
        Sample("a bad escape", #"{"filter": "platform==a\\b"}"#),
        Sample("too many conditions", #"{"filter": "\#((0...16).map { _ in "platform==ios" }.joined(separator: ";"))"}"#),
        Sample("a filter over 4,096 bytes", #"{"filter": "source==\#(String(repeating: "x", count: 4_100))"}"#),
        Sample("a NUL in the filter", #"{"filter": "source==a\u0000b"}"#),
        Sample("invalid UTF-8", "{\"filter\": \"source==\u{FFFD}\"}".replacingOccurrences(of: "\u{FFFD}", with: "INVALID")),
    ])
    func badBodiesAreA400(body: Sample) async throws {
        try await LiveServer.with { server in
            let app = try await Self.makeApp(server)
            var data = Data(body.text.utf8)
            if let range = data.range(of: Data("INVALID".utf8)) { data.replaceSubrange(range, with: [0xC3, 0x28]) }
            let answer = try await server.request(
                "/v1/segments/x", method: "PUT", headers: ["Authorization": "Bearer \(app.writeToken)"], body: data)
            #expect(answer.status == 400, "\(body)")
            let json = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect((json["error"] as? String)?.isEmpty == false, "\(body)")
            #expect(try await server.store.segments.saved(app: app.app.id).isEmpty)
        }
    }

    @Test func aMalformedFilterIsNamedAndAHugeBodyIsA413() async throws {
        try await LiveServer.with { server in
            let app = try await Self.makeApp(server)
            let bad = try await server.saveSegment("x", #"{"filter": "platform==ios;oops"}"#, token: app.writeToken)
            #expect(bad.json["error"] as? String == #"Invalid filter "oops": expected NAME==VALUE or NAME!=VALUE."#)
            let unknown = try await server.saveSegment("x", #"{"filter": "country==fr"}"#, token: app.writeToken)
            #expect((unknown.json["error"] as? String)?.contains("country") == true)
            let huge = Data(#"{"filter": "\#(String(repeating: "a", count: 40_000))"}"#.utf8)
            let answer = try await server.request(
                "/v1/segments/x", method: "PUT", headers: ["Authorization": "Bearer \(app.writeToken)"], body: huge)
            #expect(answer.status == 413)
        }
    }

    /// The 101st segment of an app is a 409 saying why; replacing one is not.
    @Test func anAppAtItsLimitIsA409() async throws {
        try await LiveServer.with { server in
            let app = try await Self.makeApp(server)
            for index in 0..<SavedSegment.maximumPerApp {
                try await server.store.segments.save(app: app.app.id, name: "s\(index)", filter: SegmentFilter([.is("platform", "ios")]))
            }
            let refused = try await server.saveSegment("one%20more", #"{"filter": "platform==ios"}"#, token: app.writeToken)
            #expect(refused.status == 409)
            #expect((refused.json["error"] as? String)?.contains("delete one first") == true)
            #expect(try await server.saveSegment("s7", #"{"filter": "platform==android"}"#, token: app.writeToken).status == 200)
        }
    }
}

extension LiveServer {
    /// `GET /v1/segments` with `token`.
    func segments(token: String) async throws -> (status: Int, json: NSDictionary) {
        let response = try await request("/v1/segments", headers: ["Authorization": "Bearer \(token)"])
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? NSDictionary ?? [:])
    }

    /// `PUT /v1/segments/{name}` (`name` as it goes in the path) with `body` and `token`.
    func saveSegment(_ name: String, _ body: String, token: String) async throws -> (status: Int, json: NSDictionary) {
        let response = try await request(
            "/v1/segments/\(name)", method: "PUT", headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: Data(body.utf8))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? NSDictionary ?? [:])
    }
}
