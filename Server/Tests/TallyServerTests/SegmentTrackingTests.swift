import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// Segment's HTTP tracking API as Segment's SDKs speak it: the official Python SDK drives it
/// in Tests/Compatibility; these tests pin each mapped field, route and error.
@Suite("Segment tracking API")
struct SegmentTrackingTests {
    @Test(arguments: TestDatabase.all) func aBatchIsStoredWithEveryFieldMapped(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            let context: [String: Any] = ["app": ["version": "3.2.1"], "os": ["name": "iOS"], "library": ["name": "analytics-python"]]
            func message(_ type: String, _ id: String, _ fields: [String: Any]) -> [String: Any] {
                ["type": type, "messageId": id, "userId": "user-1", "timestamp": now.formatted(Batch.iso), "context": context]
                    .merging(fields) { _, new in new }
            }
            let track = UUID().uuidString
            let batch: [[String: Any]] = [
                message("track", track, ["event": "Order Completed", "properties": ["total": 30, "items": [["sku": "a"]]]]),
                message("identify", "ajs-identify-1", ["traits": ["plan": "pro"], "userId": NSNull(), "anonymousId": "anon-7"]),
                message("screen", "screen-1", ["name": "Home", "category": "Main", "properties": ["from": "push"]]),
                message("page", "page-1", ["name": "Pricing"]),
                message("group", "group-1", ["groupId": "acme", "traits": ["size": 40]]),
                message("alias", "alias-1", ["previousId": "anon-7"]),
            ]
            let response = try await server.segment("/v1/batch", ["batch": batch, "sentAt": now.formatted(Batch.iso)], key: app.ingestKey)
            #expect(response.status == 200)
            #expect(response.json["success"] as? Bool == true)

            let stored = try await server.storedEvents(app)
            let byName = Dictionary(uniqueKeysWithValues: stored.map { ($0.name, $0) })
            #expect(Set(byName.keys) == ["Order Completed", "identify", "screen_view", "page_view", "group", "alias"])
            let order = try #require(byName["Order Completed"])
            #expect(order.id.uuidString == track)
            #expect(order.userID == "user-1")
            #expect(order.appVersion == "3.2.1")
            #expect(order.platform == "iOS")
            #expect(order.properties == ["total": .int(30), "items": .string(#"[{"sku":"a"}]"#)])
            #expect(byName["identify"]?.userID == "anon-7")
            #expect(byName["identify"]?.properties == ["plan": .string("pro")])
            #expect(byName["screen_view"]?.properties == ["screen": .string("Home"), "category": .string("Main"), "from": .string("push")])
            #expect(byName["page_view"]?.properties == ["page": .string("Pricing")])
            #expect(byName["group"]?.properties == ["group_id": .string("acme"), "size": .int(40)])
            #expect(byName["alias"]?.properties == ["previous_id": .string("anon-7")])

            let metrics = try await server.metrics("/v1/metrics?date=\(utcDay(now))", token: app.readToken)
            #expect((metrics.json["screens"] as? [String: Int]) == ["Home": 1])
            #expect((metrics.json["events"] as? [String: Int])?.values.reduce(0, +) == 6)
        }
    }

    @Test func eachTypeHasItsRouteAndTheKeyMayComeInTheBody() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let messages: [(String, [String: Any])] = [
                ("track", ["event": "Signed Up"]), ("identify", ["traits": ["a": 1]]), ("screen", ["name": "Home"]), ("page", ["name": "Docs"]),
            ]
            for (type, fields) in messages {
                // The route gives the type; the body's own type does not override it.
                let body = fields.merging(["type": "alias", "anonymousId": "a", "messageId": UUID().uuidString, "writeKey": app.ingestKey]) {
                    own, _ in own
                }
                let response = try await server.segment("/v1/\(type)", body, key: nil)
                #expect(response.status == 200, "\(type)")
            }
            let names = try await server.storedEvents(app).map(\.name).sorted()
            #expect(names == ["Signed Up", "identify", "page_view", "screen_view"])
            let zipped = try await gzip(JSONSerialization.data(withJSONObject: ["batch": [["type": "track", "event": "z", "userId": "u"]]]))
            let response = try await server.request(
                "/v1/batch", method: "POST", headers: ["Content-Encoding": "gzip", "Authorization": basic(app.ingestKey)], body: zipped)
            #expect(response.status == 200)
            #expect(try await server.storedCount(app) == 5)
        }
    }

    @Test func aRetriedBatchIsStoredOnceWhateverItsMessageIds() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let batch: [[String: Any]] = [
                ["type": "track", "event": "a", "userId": "u", "messageId": UUID().uuidString],
                ["type": "track", "event": "b", "userId": "u", "messageId": "ajs-next-1d9c2f"],
                ["type": "track", "event": "c", "userId": "u", "messageId": 77],
            ]
            for _ in 0..<3 { #expect(try await server.segment("/v1/batch", ["batch": batch], key: app.ingestKey).status == 200) }
            #expect(try await server.storedCount(app) == 3)
        }
    }

    @Test func aBadMessageIsRefusedAloneAndAWrongKeyWithSegmentsError() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let batch: [Any] = [
                ["type": "track", "event": "kept", "userId": "u"],
                ["type": "launch", "event": "unknown type", "userId": "u"],
                ["type": "track", "event": "no user"],
                ["type": "track", "event": "bad properties", "userId": "u", "properties": "x"],
                ["type": "track", "event": "bad time", "userId": "u", "timestamp": "yesterday"],
            ]
            #expect(try await server.segment("/v1/batch", ["batch": batch], key: app.ingestKey).status == 200)
            #expect(try await server.storedEvents(app).map(\.name) == ["kept"])

            for key in ["wrong", nil] {
                let refused = try await server.segment("/v1/batch", ["batch": []], key: key)
                #expect(refused.status == 401)
                #expect(refused.json["code"] as? String == "invalid_api_key")
                #expect(refused.json["message"] is String)
            }
            let malformed = try await server.request(
                "/v1/batch", method: "POST", headers: ["Authorization": basic(app.ingestKey)], body: Data("[]".utf8))
            #expect(malformed.status == 400)
        }
    }
}

/// An `Authorization` header of HTTP Basic authentication with `user` and no password, as
/// Segment's SDKs send their write key.
func basic(_ user: String) -> String {
    "Basic " + Data("\(user):".utf8).base64EncodedString()
}

extension LiveServer {
    /// POSTs `body`, encoded as JSON, to a route of Segment's API, with `key` as the Basic
    /// authentication user when given.
    func segment(_ path: String, _ body: Any, key: String?) async throws -> (status: Int, json: [String: Any]) {
        var headers = ["Content-Type": "application/json"]
        if let key { headers["Authorization"] = basic(key) }
        let response = try await request(path, method: "POST", headers: headers, body: JSONSerialization.data(withJSONObject: body))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }
}
