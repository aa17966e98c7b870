import Componentry
import Dispatch
import Foundation
import Testing

@Suite("EventBus lifetime")
struct EventBusLifetimeTests {
    let bus = EventBus()

    @Test func disposeStopsDeliveryAndIsIdempotent() {
        let seen = Recorder<Int>()
        let subscription = bus.on(Tick.self).handle { seen.append($0.value) }
        bus.post(Tick(value: 1))
        subscription.dispose()
        subscription.dispose()
        bus.post(Tick(value: 2))
        #expect(seen.values == [1])
        #expect(subscription.isDisposed)
        #expect(bus.subscriberCount(Tick.self) == 0)
    }

    @Test func ownerBoundSubscriptionEndsWithItsOwner() {
        let seen = Recorder<Int>()
        var owner: Owner? = Owner()
        let subscription = bus.on(Tick.self).owner(owner!).handle { _, tick in seen.append(tick.value) }
        bus.post(Tick(value: 1))
        owner = nil
        bus.post(Tick(value: 2))
        #expect(seen.values == [1])
        #expect(subscription.isDisposed)
        #expect(bus.subscriberCount(Tick.self) == 0)
    }

    @Test func deadOwnersLeaveTheListOnTheNextChange() {
        var owners: [Owner] = (0..<10).map { _ in Owner() }
        for owner in owners { bus.on(Tick.self).owner(owner).handle { _, _ in } }
        owners.removeAll()
        // A new subscription rebuilds the snapshot on the next post, which purges.
        bus.on(Tick.self).handle { _ in }
        bus.post(Tick(value: 0))
        #expect(bus.subscriberCounts.values.reduce(0, +) == 1)
    }

    @Test func lifetimeOwnerShortcutMakesSelfTheOwner() {
        let seen = Recorder<Int>()
        var owner: Owner? = Owner()
        owner!.subscribe(to: Tick.self, on: bus).handle { _, tick in seen.append(tick.value) }
        bus.post(Tick(value: 1))
        owner = nil
        bus.post(Tick(value: 2))
        #expect(seen.values == [1])
    }

    @Test func nsObjectsAreLifetimeOwners() {
        let seen = Recorder<Int>()
        var owner: NSObject? = NSObject()
        owner!.subscribe(to: Tick.self, on: bus).handle { _, tick in seen.append(tick.value) }
        bus.post(Tick(value: 1))
        owner = nil
        bus.post(Tick(value: 2))
        #expect(seen.values == [1])
    }

    @Test func disposeBagEndsItsSubscriptionsWhenReleased() {
        let seen = Recorder<Int>()
        var bag: DisposeBag? = DisposeBag()
        bus.on(Tick.self).handle { seen.append($0.value) }.disposed(by: bag!)
        bus.on(Tick.self).handle { seen.append($0.value * 10) }.disposed(by: bag!)
        bus.post(Tick(value: 1))
        bag = nil
        bus.post(Tick(value: 2))
        #expect(seen.values == [1, 10])
        #expect(bus.subscriberCount(Tick.self) == 0)
    }

    @Test func queuedDeliveriesAreDroppedOnceDisposed() async {
        let queue = DispatchQueue(label: "test.blocked")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }  // hold the queue so deliveries pile up
        let seen = Recorder<Int>()
        let subscription = bus.on(Tick.self).on(queue).handle { seen.append($0.value) }
        for value in 0..<10 { bus.post(Tick(value: value)) }
        subscription.dispose()
        gate.signal()
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(seen.values.isEmpty)
    }

    @Test func disposeWaitsForAHandlerRunningOnAnotherThread() async {
        let entered = DispatchSemaphore(value: 0)
        let finished = Counter()
        let subscription = bus.on(Tick.self).handle { _ in
            entered.signal()
            Thread.sleep(forTimeInterval: 0.05)
            finished.increment()
        }
        let bus = bus
        Thread.detachNewThread { bus.post(Tick(value: 1)) }
        entered.wait()
        subscription.dispose()
        // dispose returned, so the running handler has finished.
        #expect(finished.count == 1)
    }
}
