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

    /// The handler runs 40 posts deep on another thread — deeper than one block of frame
    /// slots — and dispose must still find it and wait.
    @Test func disposeWaitsForAHandlerRunningManyPostsDeep() async {
        struct Depth: BusEvent { let remaining: Int }
        let entered = DispatchSemaphore(value: 0)
        let finished = Counter()
        let bus = bus
        bus.on(Depth.self).handle { depth in
            if depth.remaining > 0 { bus.post(Depth(remaining: depth.remaining - 1)) } else { bus.post(Tick(value: 1)) }
        }
        let subscription = bus.on(Tick.self).handle { _ in
            entered.signal()
            Thread.sleep(forTimeInterval: 0.05)
            finished.increment()
        }
        Thread.detachNewThread { bus.post(Depth(remaining: 40)) }
        entered.wait()
        subscription.dispose()
        #expect(finished.count == 1)
    }

    /// A post reuses an owner it loaded for the next subscribers of the same owner. An
    /// owner allocated at the address of a dead one is another object: the dead owner's
    /// subscriber, delivered right after it, must not get it.
    @Test func aSubscriberOfADeadOwnerNeverGetsAnOwnerBornAtTheSameAddress() throws {
        let deadOwnersCalls = Counter()
        var dead: Owner? = Owner()
        let deadAddress = ObjectIdentifier(dead!)
        bus.on(Tick.self).owner(dead!).handle { _, _ in deadOwnersCalls.increment() }
        dead = nil
        var candidates: [Owner] = []
        while candidates.count < 1_000, candidates.last.map(ObjectIdentifier.init) != deadAddress {
            candidates.append(Owner())
        }
        let reborn = try #require(candidates.last)
        try #require(ObjectIdentifier(reborn) == deadAddress, "the allocator did not reuse the address")
        let rebornsCalls = Counter()
        // Delivered first, so the post holds `reborn` when it reaches the dead owner's subscriber.
        bus.on(Tick.self).owner(reborn).priority(1).handle { _, _ in rebornsCalls.increment() }
        bus.post(Tick(value: 1))
        #expect(rebornsCalls.count == 1)
        #expect(deadOwnersCalls.count == 0)
    }

    /// Subscribers of one owner share the owner a post loaded for the first of them.
    @Test func subscribersOfOneOwnerAllGetIt() {
        let owner = Owner()
        let seen = Recorder<ObjectIdentifier>()
        for _ in 0..<3 { bus.on(Tick.self).owner(owner).handle { owner, _ in seen.append(ObjectIdentifier(owner)) } }
        bus.post(Tick(value: 1))
        #expect(seen.values == Array(repeating: ObjectIdentifier(owner), count: 3))
    }

    /// A handler of the same event type, running on another thread, waits for something
    /// the disposing thread does only after `dispose()` returns (as a handler that waits
    /// on the main queue while the main thread disposes): dispose must not wait for it.
    @Test(arguments: [true, false])
    func disposeDoesNotWaitForOtherHandlersOfTheEvent(disposedComesFirst: Bool) async {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var other: Subscription?
        if disposedComesFirst { other = bus.on(Tick.self).handle { _ in } }
        bus.on(Tick.self).handle { _ in
            entered.signal()
            release.wait()
        }
        if !disposedComesFirst { other = bus.on(Tick.self).handle { _ in } }
        let bus = bus
        Thread.detachNewThread { bus.post(Tick(value: 1)) }
        await waitFor(entered)
        let returned = await finishes { [other] in other?.dispose() }
        release.signal()
        #expect(returned)
        #expect(bus.subscriberCount(Tick.self) == 1)
    }

    @Test func anOwnerWithASubscriptionIsDeallocated() {
        final class Page: LifetimeOwner, @unchecked Sendable {
            var total = 0
            init(bus: EventBus) {
                subscribe(to: Tick.self, on: bus).handle { page, tick in page.total += tick.value }
            }
        }
        var page: Page? = Page(bus: bus)
        weak let weakPage = page
        bus.post(Tick(value: 3))
        #expect(page?.total == 3)
        page = nil
        #expect(weakPage == nil)
        #expect(bus.subscriberCount(Tick.self) == 0)
    }
}

/// Runs `body` on a new thread; returns whether it finished within ten seconds. A body that
/// does not finish is left running (the caller releases what it waits for).
func finishes(_ body: @escaping @Sendable () -> Void) async -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    let result = Box(false)
    await runOnThread { result.set(done.wait(timeout: .now() + 10) == .success) }
    return result.get()
}
