import Foundation
import Testing

@testable import Componentry

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

    /// A post iterates its snapshot without a reference count, so a snapshot replaced
    /// under a running post is kept for it. While one handler blocks, another thread
    /// subscribes, posts and disposes a thousand times: what is kept stays bounded by the
    /// posts running, and the snapshots the blocked post was iterating still work.
    @Test func snapshotsReplacedUnderARunningPostAreKeptOnlyForIt() async {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let after = Counter()
        let bus = bus
        bus.on(Tick.self).handle { tick in
            guard tick.value == 1 else { return }
            entered.signal()
            release.wait()
        }
        bus.on(Tick.self).handle { tick in if tick.value == 1 { after.increment() } }
        Thread.detachNewThread { bus.post(Tick(value: 1)) }
        await waitFor(entered)
        var most = 0
        for _ in 0..<1_000 {
            let subscription = bus.on(Tick.self).handle { _ in }
            bus.post(Tick(value: 0))
            subscription.dispose()
            most = max(most, bus.retiredSnapshotCount)
        }
        release.signal()
        while after.count == 0 { await Task.yield() }
        bus.on(Tick.self).handle { _ in }.dispose()  // a change once no post runs frees them all
        #expect(most <= 2)
        #expect(after.count == 1)
        #expect(bus.retiredSnapshotCount == 0)
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
