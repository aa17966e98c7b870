import Locking

/// Reads that several callers asking the same at once share: the first caller's read runs,
/// the others wait for its answer. Nothing is kept once a read ends, so it holds only the
/// reads in flight.
///
/// ```swift
/// let funnels = SharedReads<FunnelKey, Funnel>()
/// let funnel = try await funnels.read(key) { try await store.funnel(…) }  // 8 tabs, one read
/// ```
final class SharedReads<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let inFlight = Locked<[Key: Task<Value, any Error>]>([:])
    /// Callers waiting for an answer: for tests.
    private let callers = Locked(0)

    /// The answer to the read of `key` in flight, or of `read`, started now, if none is.
    func read(_ key: Key, _ read: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = inFlight.withLock { inFlight in
            if let running = inFlight[key] { return running }
            let task = Task {
                defer { self.inFlight.withLock { _ = $0.removeValue(forKey: key) } }
                return try await read()
            }
            inFlight[key] = task
            return task
        }
        callers.withLock { $0 += 1 }
        defer { callers.withLock { $0 -= 1 } }
        return try await task.value
    }

    /// How many reads are in flight, and how many callers wait for them: for tests.
    var counts: (reads: Int, callers: Int) { (inFlight.withLock(\.count), callers.withLock { $0 }) }
}
