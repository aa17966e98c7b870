import Componentry
import Dispatch
import Foundation
import Testing

@Suite("EventBus threading")
struct EventBusThreadingTests {
    let bus = EventBus()

    @Test func queuedDeliveryIsFirstInFirstOutPerSubscriberOnAConcurrentQueue() async {
        let concurrent = DispatchQueue(label: "test.concurrent", attributes: .concurrent)
        let seen = Recorder<Int>()
        let done = DispatchSemaphore(value: 0)
        bus.on(Tick.self).on(concurrent).handle { tick in
            seen.append(tick.value)
            if tick.value == 999 { done.signal() }
        }
        for value in 0..<1000 { bus.post(Tick(value: value)) }
        await waitFor(done)
        #expect(seen.values == Array(0..<1000))
    }

    @Test func mainActorDeliveryRunsIsolatedToTheMainActor() async {
        let seen = Recorder<Int>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            bus.on(Tick.self).onMainActor().handle { tick in
                MainActor.assertIsolated()  // traps, failing the run, if not on the main actor
                seen.append(tick.value)
                continuation.resume()
            }
            let bus = bus
            DispatchQueue.global().async { bus.post(Tick(value: 1)) }
        }
        #expect(seen.values == [1])
    }

    @Test func asynchronousPostsArriveInPostingOrderOffTheCaller() async {
        let seen = Recorder<Int>()
        let done = DispatchSemaphore(value: 0)
        bus.on(Tick.self).handle { tick in
            seen.append(tick.value)
            if tick.value == 499 { done.signal() }
        }
        for value in 0..<500 { bus.postAsynchronously(Tick(value: value)) }
        await waitFor(done)
        #expect(seen.values == Array(0..<500))
    }

    @Test func postFromAnActorIsSynchronous() async {
        actor Poster {
            func post(on bus: EventBus) { bus.post(Tick(value: 7)) }
        }
        let seen = Recorder<Int>()
        bus.on(Tick.self).handle { seen.append($0.value) }
        await Poster().post(on: bus)
        #expect(seen.values == [7])
    }

    /// Eight threads subscribe, post and dispose for a fixed count. Permanent subscribers
    /// must see every post (no lost delivery); transient ones must see every post their
    /// own thread made while subscribed, and nothing once their dispose returned.
    @Test func stressEightThreadsNoLostDeliveryAndNoDeliveryAfterDispose() async {
        let threads = 8
        let rounds = 400
        let postsPerRound = 3
        let permanent = (0..<4).map { _ in Counter() }
        for counter in permanent {
            bus.on(Tick.self).handle { _ in counter.increment() }
        }
        let afterDispose = Counter()
        let missedOwn = Counter()
        let bus = bus

        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    await runOnThread {
                        for round in 0..<rounds {
                            let disposed = Counter()  // above 0 once disposed
                            let own = Counter()
                            let tag = thread * 1_000_000 + round * 10
                            let subscription = bus.on(Tick.self).priority(round % 3).handle { tick in
                                if tick.value / 10 == tag / 10 { own.increment() }
                                // Stay in the handler a moment, so a dispose that does not
                                // wait for running handlers would be caught here.
                                sched_yield()
                                if disposed.count > 0 { afterDispose.increment() }
                            }
                            for offset in 0..<postsPerRound { bus.post(Tick(value: tag + offset)) }
                            subscription.dispose()
                            disposed.increment()
                            if own.count != postsPerRound { missedOwn.increment() }
                        }
                    }
                }
            }
        }

        let totalPosts = threads * rounds * postsPerRound
        #expect(permanent.map(\.count) == Array(repeating: totalPosts, count: 4))
        #expect(afterDispose.count == 0)
        #expect(missedOwn.count == 0)
        #expect(bus.subscriberCount(Tick.self) == 4)
    }
}

/// Runs `body` on a new thread and resumes when it has finished.
func runOnThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
            body()
            continuation.resume()
        }
    }
}

/// Waits for `semaphore` without blocking the cooperative pool.
func waitFor(_ semaphore: DispatchSemaphore) async {
    await runOnThread { semaphore.wait() }
}
