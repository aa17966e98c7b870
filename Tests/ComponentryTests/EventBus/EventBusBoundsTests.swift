@testable import Componentry
import Foundation
import Testing

/// What lives as long as the bus stays bounded however many rounds a page is rebuilt.
@Suite("EventBus bounds")
struct EventBusBoundsTests {
    let bus = EventBus()

    @Test func postsOfSubTypesNoFilterNamesCacheNoSnapshot() {
        let all = Counter()
        let fixed = Counter()
        bus.on(NamedEvent.self).handle { _ in all.increment() }
        bus.on(named: "fixed").handle { _ in fixed.increment() }
        var most = 0
        for round in 0..<100_000 {
            bus.post(named: round.isMultiple(of: 10) ? "fixed" : "page-\(round)")
            most = max(most, bus.cachedSnapshotCount)
        }
        #expect(most <= 2)  // the unfiltered subscribers' and "fixed"'s
        #expect(all.count == 100_000)
        #expect(fixed.count == 10_000)
    }

    @Test func subscribersOfDeadOwnersAreReleasedWithoutAPost() {
        let live = (0..<10).map { _ in Owner() }
        for owner in live { bus.on(Tick.self).owner(owner).handle { _, _ in } }
        weak var firstCapture: Counter?
        var most = 0
        for round in 0..<100_000 {
            let owner = Owner()
            let captured = Counter()
            if round == 0 { firstCapture = captured }
            bus.on(Tick.self).owner(owner).handle { _, _ in withExtendedLifetime(captured) {} }
            most = max(most, bus.linkedSubscriberCount)
        }
        #expect(most <= 2 * (DeadOwnerSweep.minimum + live.count))
        #expect(firstCapture == nil)  // the handler of a dead owner, and what it captured, are gone
        #expect(bus.subscriberCount(Tick.self) == live.count)
    }

    @Test func aStalledEventLoopKeepsTheNewestEventsOnly() async {
        let events = bus.events(of: Tick.self)
        for value in 0..<100_000 { bus.post(Tick(value: value)) }
        var received: [Int] = []
        for await tick in events {
            received.append(tick.value)
            if tick.value == 99_999 { break }
        }
        #expect(received.count == EventBus.defaultEventBufferSize)
        #expect(received.first == 100_000 - EventBus.defaultEventBufferSize)
    }
}
