import Foundation
import GRDB
import TallyEvent
import TallyServerTesting
import TallyStore
import Testing

/// `tally user-data export` and `delete`, run as a child process the way an operator runs them.
extension CommandTests {
    @Test func userDataExportsAndDeletesOneUserAndNamesAnUnknownOne() async throws {
        try await run(["app", "create", "Bills", "--db", db])
        let store = try EventStore(path: db)
        let app = try #require(try await store.apps.all().first).id
        let now = Date()
        _ = try await store.events.insert(
            ["ann", "ann", "bob"].map { Event(id: UUID(), name: "open", timestamp: now, userID: $0, appVersion: "1.0", platform: "iOS") }, app: app)

        let lines = try await run(["user-data", "export", "--app", "Bills", "ann", "--db", db]).split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["record"] as? String ?? "event" } == ["user", "event", "event", "summary"])
        #expect(objects.allSatisfy { $0["user_id"] == nil || $0["user_id"] as? String == "ann" })

        let deleted = try await run(["user-data", "delete", "--app", "1", "ann", "--db", db])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(deleted.utf8)) as? [String: Any])
        #expect(record["deleted_by"] as? String == "cli" && (record["events"] as? NSNumber)?.intValue == 2 && record["deleted_at"] is String)
        #expect(!deleted.contains("ann"), "the record holds no user id")
        #expect(try await store.users.search(app: app, prefix: "").map(\.id) == ["bob"])

        for command in ["delete", "export"] {
            let failure = try await runFailing(["user-data", command, "--app", "Bills", "ann", "--db", db])
            #expect(failure.status != 0 && failure.errors.contains(#"The app has no user "ann"."#), "\(failure.errors)")
        }
        let unknownApp = try await runFailing(["user-data", "delete", "--app", "Shop", "bob", "--db", db])
        #expect(unknownApp.status != 0 && unknownApp.errors.contains(#"no app has the id or name "Shop""#), "\(unknownApp.errors)")
        #expect(try await store.users.search(app: app, prefix: "").map(\.id) == ["bob"])
    }

    /// A command run while `tally serve`'s ingest holds the write lock waits for it instead of
    /// failing with "database is locked".
    @Test func commandsWaitForAnotherProcessesWrite() async throws {
        try await run(["user", "create", "ana", "--db", db])
        try await run(["app", "create", "Bills", "--owner", "ana", "--db", db])
        try await run(["user", "create", "bo", "--db", db])
        let path = db
        let writer = try DatabaseQueue(path: path)
        let commands: [(arguments: [String], answer: String)] = [
            (["user", "grant", "bo", "Bills", "viewer"], "granted viewer"), (["user", "revoke", "bo", "Bills"], "revoked"),
            (["app", "create", "Shop"], "ingest_key"), (["user-data", "delete", "--app", "Bills", "nobody"], #"The app has no user "nobody"."#),
        ]
        for (arguments, answer) in commands {
            // The write lock held for a second, as a long write of another process would.
            let holding = Task {
                try await writer.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    Thread.sleep(forTimeInterval: 1)
                    try db.execute(sql: "ROLLBACK")
                }
            }
            try await Task.sleep(for: .milliseconds(100))
            let result = try await ChildProcess.run("tally", arguments + ["--db", path])
            try await holding.value
            #expect((result.text + result.errors).contains(answer), "\(arguments): \(result.errors)")
        }
    }

    /// Runs `tally` with `arguments`, expected to fail, and returns its status and standard error.
    func runFailing(_ arguments: [String]) async throws -> (status: Int32, errors: String) {
        let outcome = try await ChildProcess.run("tally", arguments)
        return (outcome.status, outcome.errors)
    }
}
