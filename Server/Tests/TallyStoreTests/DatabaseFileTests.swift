import Foundation
import Testing

@testable import TallyStore

/// The SQLite file holds raw events and password hashes: only its owner reads it.
@Suite struct DatabaseFileTests {
    @Test func aNewDatabaseAndItsJournalsAreReadableByTheOwnerOnly() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-mode-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tally.sqlite").path
        let previous = umask(0o022)  // the usual umask, which leaves new files world-readable
        defer { umask(previous) }
        let store = try EventStore(path: path)
        _ = try await store.apps.create(name: "Mode")
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o600, "\(file): \(String(mode, radix: 8))")
        }
    }
}
