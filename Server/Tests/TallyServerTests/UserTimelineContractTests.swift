import Foundation
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// `GET /v1/users` and `GET /v1/users/{user_id}/events` over a real server: the store's users
/// and timelines as JSON, page by page, and a 4xx naming what is wrong for anything else.
@Suite("/v1/users contract")
struct UserTimelineContractTests {
    /// Users `a/b é` (seven events, the newest two in one millisecond, one identify setting
    /// their plan), `ana` and `bob`, an hour ago.
    static func populate(_ server: LiveServer) async throws -> NewApp {
        let app = try await server.makeApp()
        _ = try await server.store.apps.update(app.app.id, segmentProperties: SegmentProperties(user: ["plan"]))
        let start = Date().addingTimeInterval(-3_600)
        var events = (0..<5).map { Batch.event(name: "tap", at: start.addingTimeInterval(Double($0)), user: "a/b é") }
        events.append(Batch.event(name: "identify", at: start.addingTimeInterval(10), user: "a/b é", ["properties": ["plan": "pro"]]))
        events += ["android", "ios"].map { Batch.event(name: "open", at: start.addingTimeInterval(20), user: "a/b é", ["platform": $0]) }
        events += ["ana", "bob"].map { Batch.event(at: start, user: $0) }
        let answer = try await server.ingest(Batch.body(events), key: app.ingestKey)
        #expect(answer.json["accepted"] as? Int == events.count)
        return app
    }

    @Test(arguments: TestDatabase.all) func timelinesAndSearchesAreTheStoresAnswers(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await Self.populate(server)
            let path = "/v1/users/\(percentEncoded("a/b é"))/events"
            var pages: [[String: Any]] = []
            var before: String?
            repeat {
                let response = try await server.body(path + "?limit=3" + (before.map { "&before=\($0)" } ?? ""), token: app.readToken)
                #expect(response.status == 200)
                let page = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                let expected = try await server.store.users.timeline(
                    app: app.app.id, user: "a/b é", before: before.flatMap(UserTimeline.Cursor.init), limit: 3)
                #expect((page["events"] as? [[String: Any]])?.map { $0["id"] as? String } == expected?.events.map(\.id.uuidString))
                #expect(page["next"] as? String == expected?.next?.description)
                pages.append(page)
                before = page["next"] as? String
            } while before != nil
            #expect(pages.map { ($0["events"] as? [Any])?.count } == [3, 3, 2])
            let events = pages.flatMap { $0["events"] as? [[String: Any]] ?? [] }
            #expect(events.map { $0["name"] as? String } == ["open", "open", "identify", "tap", "tap", "tap", "tap", "tap"])
            // Within a millisecond, the later stored comes first.
            #expect(events.prefix(2).map { $0["platform"] as? String } == ["ios", "android"])
            #expect(
                Set(events[0].keys) == [
                    "id", "name", "timestamp", "device_timestamp", "user_id", "session_id", "app_version", "platform", "properties",
                ])
            let user = try #require(pages[0]["user"] as? [String: Any])
            #expect(user["user_id"] as? String == "a/b é" && user["platform"] as? String == "ios")
            #expect(user["properties"] as? [String: String] == ["plan": "pro"])
            #expect(user["first_seen"] as? String == events.last?["timestamp"] as? String)

            let filtered = try await server.body(path + "?filters=platform%3D%3Dandroid", token: app.readToken)
            let only = try JSONSerialization.jsonObject(with: filtered.body) as? [String: Any]
            #expect((only?["events"] as? [[String: Any]])?.map { $0["platform"] as? String } == ["android"])

            let search = try await server.body("/v1/users?prefix=a&limit=5", token: app.readToken)
            #expect(search.status == 200)
            let users = try JSONSerialization.jsonObject(with: search.body) as? [String: [[String: Any]]]
            #expect(users?["users"]?.map { $0["user_id"] as? String } == ["a/b é", "ana"])
            #expect(try canonical(search.body).contains("first_seen"))
        }
    }

    /// A user the app lacks or another app's user is a 404; a bad limit, cursor or filter a
    /// 400; no token a 401.
    @Test(arguments: TestDatabase.all) func aTokenReachesItsOwnAppsUsersOnly(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await Self.populate(server)
            let other = try await server.makeApp()
            #expect(try await server.body("/v1/users/ana/events", token: app.readToken).status == 200)
            #expect(try await server.body("/v1/users/ana/events", token: other.readToken).status == 404)
            #expect(try await server.body("/v1/users/nobody/events", token: app.readToken).status == 404)
            let users = try await server.body("/v1/users", token: other.readToken)
            #expect(try canonical(users.body) == #"{"users":[]}"#)
            for query in [
                "limit=0", "limit=1001", "limit=-1", "limit=99999999999999999999999", "limit=x", "before=1", "before=a.b", "before=",
                "filters=tier%3D%3Dgold", "filters=%3D%3D", "limit=%FF",
            ] {
                #expect(try await server.body("/v1/users/ana/events?\(query)", token: app.readToken).status == 400, "\(query)")
            }
            // Cursors at the ends of the numbers read as places before or after every event.
            for cursor in ["9223372036854775807.9223372036854775807", "-9223372036854775808.-9223372036854775808", "0.0"] {
                let page = try await server.body("/v1/users/ana/events?before=\(cursor)", token: app.readToken)
                #expect(page.status == 200, "\(cursor)")
                let events = (try JSONSerialization.jsonObject(with: page.body) as? [String: Any])?["events"] as? [Any]
                #expect(events?.count == (cursor.hasPrefix("9") ? 1 : 0), "\(cursor)")
            }
            #expect(try await server.body("/v1/users?limit=101", token: app.readToken).status == 400)
            #expect(try await server.body("/v1/users?prefix=%E0", token: app.readToken).status == 400)
            #expect(try await server.body("/v1/users/%FF/events", token: app.readToken).status == 400)
            for headers in [[:], ["Authorization": "Bearer nope"], ["X-App-Key": app.ingestKey]] {
                #expect(try await server.request("/v1/users", headers: headers).status == 401)
                #expect(try await server.request("/v1/users/ana/events", headers: headers).status == 401)
            }
        }
    }
}
