import Foundation
import Testing

@testable import TallyStore

@Suite struct WALSyncTests {
    /// Every acknowledgement runs once, after a sync, however many arrive while one runs.
    @Test func everyWaiterIsAcknowledgedOnce() async throws {
        let store = try makeStore()
        _ = try await store.apps.create(name: "Demo")  // writes the WAL file
        let sync = WALSync(databasePath: store.pool.path)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        sync.afterSync { result in continuation.resume(with: result.map { true }) }
                    }
                }
            }
            return try await group.reduce(into: 0) { count, acknowledged in if acknowledged { count += 1 } }
        }
        #expect(results == 200)
    }

    /// A sync that cannot reach the WAL reports the error to the waiters instead of
    /// acknowledging them.
    @Test func aFailedSyncIsReported() async throws {
        let sync = WALSync(databasePath: "/nonexistent-\(UUID().uuidString)/tally.sqlite")
        await #expect(throws: POSIXError.self) {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sync.afterSync { continuation.resume(with: $0) }
            }
        }
    }
}
