@testable import Componentry
import Foundation
import Testing

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
