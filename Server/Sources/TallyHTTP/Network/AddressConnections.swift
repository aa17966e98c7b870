import Locking

/// How many connections each client address holds open, so that one address cannot hold
/// them all. An address's entry lives as long as one of its connections, so the table is
/// bounded by the number of open connections.
final class AddressConnections: Sendable {
    /// The most connections one address may hold open.
    let limit: Int
    private let counts = Locked<[IPAddress: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection from `address` and returns `true`, or returns `false` if the
    /// address already holds ``limit``.
    func open(_ address: IPAddress) -> Bool {
        counts.withLock { counts in
            guard counts[address, default: 0] < limit else { return false }
            counts[address, default: 0] += 1
            return true
        }
    }

    /// Counts the end of a connection ``open(_:)`` admitted.
    func close(_ address: IPAddress) {
        counts.withLock { counts in
            let left = counts[address, default: 1] - 1
            counts[address] = left > 0 ? left : nil
        }
    }

    /// Addresses with a connection open; for tests of the bound.
    var addresses: Int { counts.withLock(\.count) }
}
