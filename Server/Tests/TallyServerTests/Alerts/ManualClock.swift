import Foundation
import Locking
import TallyServer
import TallyStore

/// A clock that moves only when told; `sleep(until:)` returns once it has moved there.
final class ManualClock: AlertClock {
    private let current: Locked<Date>

    init(_ start: Date) {
        current = Locked(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(to date: Date) {
        current.withLock { $0 = max($0, date) }
    }

    func sleep(until date: Date) async throws {
        while now < date {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
