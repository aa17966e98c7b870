import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// A user's export: the user's record and properties in each build, every raw event as
/// `tally export` writes it, and how many events the rollups hold.
@Suite struct UserExportTests {
    @Test(arguments: TestDatabase.all)
    func exportHoldsEverythingStoredAboutTheUser(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Export").app.id
        _ = try await store.apps.update(app, segmentProperties: UserDataOracle.properties)
        let events = UserDataOracle.events(seed: 5)
        try await UserDataOracle.insert(events, into: store, app: app, seed: 5)
        var bytes: [UInt8] = []
        let written = try await store.userData.export(app: app, user: UserDataOracle.deleted) { bytes += $0 }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let mine = events.filter { $0.userID == UserDataOracle.deleted }
        let ids = Set(mine.map(\.id))
        #expect(written == ids.count)
        let exported = lines.filter { $0["record"] == nil }
        #expect(Set(exported.compactMap { ($0["id"] as? String).flatMap(UUID.init(uuidString:)) }) == ids)
        #expect(exported.allSatisfy { $0["user_id"] as? String == UserDataOracle.deleted })
        // Oldest first within each build.
        let production = exported.filter { number($0["app"]) == app.rawValue }.map { $0["timestamp"] as! String }
        #expect(production == production.sorted())
        let users = lines.filter { $0["record"] as? String == "user" }
        #expect(Set(users.compactMap { number($0["app"]) }) == Set(mine.map { $0.isDebug ? app.debug.rawValue : app.rawValue }))
        #expect(users.allSatisfy { $0["user_id"] as? String == UserDataOracle.deleted && $0["first_seen"] is String })
        let plans = lines.filter { $0["record"] as? String == "user_property" }
        #expect(!plans.isEmpty && plans.allSatisfy { $0["property"] as? String == "plan" })
        let summaries = lines.filter { $0["record"] as? String == "summary" }
        #expect(summaries.reduce(0) { $0 + Int(number($1["raw_events"]) ?? -1) } == ids.count)
        #expect(summaries.reduce(0) { $0 + Int(number($1["events"]) ?? -1) } == ids.count)
        // The same lines `tally export` writes for those events.
        var all: [UInt8] = []
        _ = try await store.events.write(
            app: app, from: Date(unixMilliseconds: 0), to: Date(unixMilliseconds: MetricsPropertyTests.start + 30 * 86_400_000), as: .ndjson
        ) { all += $0 }
        let exportLines = Set(String(decoding: all, as: UTF8.self).split(separator: "\n").map(String.init))
        let userLines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.contains(#""record":"#) }
        #expect(userLines.filter { $0.contains(#"{"app":\#(app.rawValue),"#) }.allSatisfy(exportLines.contains))
        await #expect(throws: TallyStoreError.unknownAppUser("nobody")) {
            try await store.userData.export(app: app, user: "nobody") { _ in }
        }
    }

    /// A user of many events on one day is written a page at a time, every event once and in
    /// order; ``EventStore/hasUserData(app:user:)`` knows the user in either build.
    @Test(arguments: TestDatabase.all)
    func aBusyDayIsWrittenAPageAtATime(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Export").app.id
        let start = Date(unixMilliseconds: MetricsPropertyTests.start)
        let count = UserDataStore.userExportPage * 2 + 100
        let events = (0..<count).map { index in
            Event(id: UUID(), name: "tap", timestamp: start.addingTimeInterval(Double(index) / 1_000), userID: "bot", sessionID: "s")
        }
        try await store.events.insert(events, app: app)
        try await store.events.insert([Event(id: UUID(), name: "tap", timestamp: start, userID: "tester", isDebug: true)], app: app)

        var pages: [Int] = []
        var ids: [String] = []
        let written = try await store.userData.export(app: app, user: "bot") { bytes in
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
                try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }
            let events = lines.filter { $0["record"] == nil }
            if !events.isEmpty { pages.append(events.count) }
            ids += events.compactMap { $0["id"] as? String }
        }
        #expect(written == count)
        #expect(pages == [UserDataStore.userExportPage, UserDataStore.userExportPage, 100])
        #expect(ids == events.map(\.id.uuidString))

        #expect(try await store.userData.contains(app: app, user: "bot"))
        #expect(try await store.userData.contains(app: app, user: "tester"), "a user of debug builds only")
        #expect(try await !store.userData.contains(app: app, user: "nobody"))
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 999))) {
            try await store.userData.contains(app: AppID(rawValue: 999), user: "bot")
        }
    }

    /// A JSON number read by `JSONSerialization`, as an integer.
    private func number(_ value: Any?) -> Int64? {
        (value as? NSNumber)?.int64Value ?? (value as? Int).map(Int64.init)
    }
}
