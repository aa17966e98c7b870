import Foundation
import Testing

@testable import Componentry

/// What lives as long as an observable stays bounded however many rounds a page is rebuilt.
@Suite("Observable bounds")
struct ObservableBoundsTests {
    @Test func observersOfDeadOwnersAreReleasedWithoutAChange() {
        let count = Observable(0)
        let live = (0..<10).map { _ in Owner() }
        for owner in live { count.observe().owner(owner).didChange { _, _, _ in } }
        weak var firstCapture: Counter?
        var most = 0
        for round in 0..<100_000 {
            let owner = Owner()
            let captured = Counter()
            if round == 0 { firstCapture = captured }
            count.observe().owner(owner).willChange { _, _ in withExtendedLifetime(captured) {} }
            most = max(most, count.core.observerCount)
        }
        #expect(most <= 2 * (DeadOwnerSweep.minimum + live.count))
        #expect(firstCapture == nil)
    }

    /// A change is delivered from an observer list read without a reference count, so a
    /// list replaced while the change runs is kept for it. While one observer blocks,
    /// another thread observes and disposes a thousand times: the observers after the
    /// blocked one still hear the change, once, and the lists are back to the two.
    @Test func listsReplacedWhileAChangeRunsAreKeptForIt() async {
        let count = Observable(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let after = Counter()
        count.observe().didChange { new, _ in
            guard new == 1 else { return }
            entered.signal()
            release.wait()
        }
        count.observe().didChange { new, _ in if new == 1 { after.increment() } }
        Thread.detachNewThread { count.value = 1 }
        await waitFor(entered)
        for _ in 0..<1_000 {
            count.observe().didChange { _, _ in }.dispose()
            count.observe().willChange { _ in }.dispose()
        }
        release.signal()
        while after.count == 0 { await Task.yield() }
        #expect(after.count == 1)
        #expect(count.core.observerCount == 2)
    }

    @Test func aStalledValueLoopKeepsTheNewestValuesOnly() async {
        let count = Observable(0)
        let values = count.values
        for value in 1...100_000 { count.value = value }
        var received: [Int] = []
        for await value in values {
            received.append(value)
            if value == 100_000 { break }
        }
        #expect(received.count == Observable<Int>.defaultValueBufferSize)
        #expect(received.first == 100_000 - Observable<Int>.defaultValueBufferSize + 1)
    }
}
