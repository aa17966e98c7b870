import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// PostHog's capture API as PostHog's SDKs speak it: the official Python SDK drives it in
/// Tests/Compatibility; these tests pin each mapped field and each body shape.
@Suite("PostHog capture API")
struct PostHogCaptureTests {
    @Test(arguments: TestDatabase.all) func aBatchIsStoredWithEveryFieldMapped(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let (purchase, screen, set) = (UUID(), UUID(), UUID())
            let now = Date()
            let body: [String: Any] = [
                "api_key": app.ingestKey, "sent_at": now.formatted(Batch.iso),
                "batch": [
                    [
                        "event": "purchase", "distinct_id": "user-1", "uuid": purchase.uuidString, "timestamp": now.formatted(Batch.iso),
                        "properties": [
                            "$session_id": "session-1", "$app_version": "2.1.0", "$os": "Android", "amount": 9.5, "token": app.ingestKey,
                            "$active_feature_flags": ["beta", "dark"], "$lib": "posthog-python",
                        ],
                    ],
                    ["event": "$screen", "distinct_id": 42, "uuid": screen.uuidString, "properties": ["$screen_name": "Home"]],
                    ["event": "$set", "distinct_id": "user-1", "uuid": set.uuidString, "$set": ["plan": "pro"]],
                ],
            ]
            let response = try await server.postHog("/batch/", body)
            #expect(response.status == 200)
            #expect(response.json["status"] as? Int == 1)

            let stored = Dictionary(uniqueKeysWithValues: try await server.storedEvents(app).map { ($0.id, $0) })
            let first = try #require(stored[purchase])
            #expect(first.name == "purchase")
            #expect(first.userID == "user-1")
            #expect(first.sessionID == "session-1")
            #expect(first.appVersion == "2.1.0")
            #expect(first.platform == "Android")
            #expect(
                first.properties == [
                    "amount": .double(9.5), "$active_feature_flags": .string(#"["beta","dark"]"#), "$lib": .string("posthog-python"),
                ])
            let second = try #require(stored[screen])
            #expect(second.name == "screen_view")
            #expect(second.userID == "42")
            #expect(second.properties["screen"] == .string("Home"))
            #expect(try #require(stored[set]).properties["$set"] == .string(#"{"plan":"pro"}"#))

            let metrics = try await server.metrics("/v1/metrics?date=\(utcDay(now))", token: app.readToken)
            #expect((metrics.json["screens"] as? [String: Int]) == ["Home": 1])
            #expect((metrics.json["events"] as? [String: Int]) == ["purchase": 1, "screen_view": 1, "$set": 1])
        }
    }

    @Test func everyRouteTakesEachBodyShapeTheSDKsSend() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            func event(_ name: String, _ properties: [String: Any] = [:]) -> [String: Any] {
                ["event": name, "distinct_id": "u", "uuid": UUID().uuidString, "properties": properties]
            }
            var single = event("single")
            single["api_key"] = app.ingestKey
            #expect(try await server.postHog("/capture/", single).status == 200)
            #expect(try await server.postHog("/e/", [event("array", ["token": app.ingestKey]), event("array")]).status == 200)
            func zipped() async throws -> Data {
                try await gzip(JSONSerialization.data(withJSONObject: ["api_key": app.ingestKey, "batch": [event("zipped")]]))
            }
            #expect(try await server.postHog("/i/v0/e/?compression=gzip-js", data: await zipped()).status == 200)
            #expect(try await server.postHog("/batch/", data: await zipped(), headers: ["Content-Encoding": "gzip"]).status == 200)
            let names = try await server.storedEvents(app).map(\.name).sorted()
            #expect(names == ["array", "array", "single", "zipped", "zipped"])
        }
    }

    @Test func aRetriedBatchIsStoredOnceWhateverItsIds() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let body: [String: Any] = [
                "api_key": app.ingestKey,
                "batch": [
                    ["event": "a", "distinct_id": "u", "uuid": UUID().uuidString],
                    ["event": "b", "distinct_id": "u", "uuid": "not-a-uuid-but-stable"],
                ],
            ]
            for _ in 0..<3 { #expect(try await server.postHog("/batch/", body).status == 200) }
            #expect(try await server.storedCount(app) == 2)
        }
    }

    @Test func aBadEventIsRefusedAloneAndAWrongKeyWithPostHogsError() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let events: [Any] = [
                ["event": "kept", "distinct_id": "u", "uuid": UUID().uuidString],
                ["event": "no user", "uuid": UUID().uuidString],
                ["event": String(repeating: "x", count: 101), "distinct_id": "u"],
                ["event": "bad properties", "distinct_id": "u", "properties": [1, 2]],
                "not an event",
            ]
            let response = try await server.postHog("/batch/", ["api_key": app.ingestKey, "batch": events])
            #expect(response.status == 200)
            #expect(try await server.storedEvents(app).map(\.name) == ["kept"])

            for body: [String: Any] in [["api_key": "wrong", "batch": []], ["batch": []]] {
                let refused = try await server.postHog("/batch/", body)
                #expect(refused.status == 401)
                #expect(refused.json["type"] as? String == "authentication_error")
                #expect(refused.json["code"] as? String == "invalid_api_key")
                #expect(refused.json["detail"] is String)
            }
            let malformed = try await server.postHog("/batch/", data: Data("{".utf8))
            #expect(malformed.status == 400)
            #expect(malformed.json["type"] as? String == "validation_error")
        }
    }
}

extension LiveServer {
    /// POSTs `body`, encoded as JSON, to a route of PostHog's capture API.
    func postHog(_ path: String, _ body: Any) async throws -> (status: Int, json: [String: Any]) {
        try await postHog(path, data: JSONSerialization.data(withJSONObject: body))
    }

    /// POSTs `data` to a route of PostHog's capture API.
    func postHog(_ path: String, data: Data, headers: [String: String] = [:]) async throws -> (status: Int, json: [String: Any]) {
        let response = try await request(
            path, method: "POST", headers: headers.merging(["Content-Type": "application/json"]) { own, _ in own }, body: data)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }
}
