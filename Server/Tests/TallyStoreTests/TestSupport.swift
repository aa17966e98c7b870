import Foundation
import GRDB
import TallyEvent

@testable import TallyStore

/// A store in a fresh temporary file.
func makeStore() throws -> EventStore {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TallyStoreTests", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try EventStore(path: directory.appendingPathComponent("\(UUID().uuidString).sqlite").path)
}

/// An instant parsed from ISO 8601 with fractional seconds optional, for example `2026-03-01T17:30:00Z`.
func instant(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
}

/// An event with defaults for the fields a test does not care about.
func event(
    id: UUID = UUID(), name: String = "open", at timestamp: Date, user: String = "u1", version: String = "1.0",
    properties: [String: PropertyValue] = [:]
) -> Event {
    Event(
        id: id, name: name, timestamp: timestamp, deviceTimestamp: timestamp.addingTimeInterval(-1.5), userID: user,
        sessionID: "s-\(user)", appVersion: version, platform: "iOS", properties: properties)
}

/// The ids of every stored event, read from the `event` table's 16-byte blobs.
func storedEventIDs(_ db: Database) throws -> Set<UUID> {
    Set(try Data.fetchAll(db, sql: "SELECT id FROM event").compactMap(UUID.init(storedID:)))
}

extension EventStore {
    /// The SQLite database behind the store, for tests that inspect or break it.
    var pool: DatabasePool { (backend as! SQLiteBackend).pool }

    /// The PostgreSQL backend behind the store, for tests that inspect or break it.
    var postgres: PostgresBackend { backend as! PostgresBackend }
}

extension UUID {
    /// A UUID drawn from `generator`, so that a seeded test makes the same ids every run.
    static func random(using generator: inout some RandomNumberGenerator) -> UUID {
        UUID(uuid: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }.withUnsafeBytes { $0.load(as: uuid_t.self) })
    }
}
