import Componentry
import Dispatch
import Foundation
import Testing

@Suite("Observable delivery")
struct ObservableDeliveryTests {
    @Test func queuedDeliveryKeepsCommitOrderOnAConcurrentQueue() async {
        let count = Observable(0)
        let concurrent = DispatchQueue(label: "test.observable.concurrent", attributes: .concurrent)
        let seen = Recorder<Int>()
        let done = DispatchSemaphore(value: 0)
        count.observe().on(concurrent).didChange { new, _ in
            seen.append(new)
            if new == 500 { done.signal() }
        }
        for value in 1...500 { count.value = value }
        await waitFor(done)
        #expect(seen.values == Array(1...500))
    }

    @Test func mainActorDeliveryRunsIsolatedToTheMainActor() async {
        let count = Observable(0)
        let seen = Recorder<[Int]>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            count.observe().onMainActor().didChange { new, old in
                MainActor.assertIsolated()  // traps, failing the run, if not on the main actor
                seen.append([new, old])
                continuation.resume()
            }
            DispatchQueue.global().async { count.value = 1 }
        }
        #expect(seen.values == [[1, 0]])
    }

    @Test func initialIsDeliveredOnTheObserversQueueBeforeChanges() async {
        let count = Observable(7)
        let queue = DispatchQueue(label: "test.observable.serial")
        let seen = Recorder<[Int]>()
        let done = DispatchSemaphore(value: 0)
        count.observe().on(queue).initial().didChange { new, old in
            seen.append([new, old])
            if new == 8 { done.signal() }
        }
        count.value = 8
        await waitFor(done)
        #expect(seen.values == [[7, 7], [8, 7]])
    }

    @Test func valuesYieldsTheCurrentValueThenEveryChange() async {
        let count = Observable(0)
        let stream = count.values
        count.value = 1
        count.value = 2
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if received.count == 3 { break }
        }
        #expect(received == [0, 1, 2])
    }

    @Test func cancellingTheValuesLoopEndsTheObservation() async {
        let count = Observable(0)
        let task = Task {
            var seen: [Int] = []
            for await value in count.values { seen.append(value) }
            return seen
        }
        try? await Task.sleep(nanoseconds: 10_000_000)
        task.cancel()
        let seen = await task.value
        count.value = 1  // nobody listens any more; must not crash or deliver
        #expect(!seen.contains(1))
    }

    /// Eight threads set at once: each observer hears the same changes in the same order,
    /// every change's old value is the one before it, and the last one heard is the value.
    @Test func concurrentSettersAreDeliveredInOneOrder() async {
        let count = Observable(0)
        let first = Recorder<[Int]>()
        let second = Recorder<[Int]>()
        count.observe().didChange { new, old in first.append([new, old]) }
        count.observe().didChange { new, old in second.append([new, old]) }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    await runOnThread { for step in 1...300 { count.value = thread * 1_000 + step } }
                }
            }
        }
        let changes = first.values
        let sameOrder = changes == second.values
        let chained = zip(changes, changes.dropFirst()).allSatisfy { $0[0] == $1[1] }
        #expect(sameOrder)
        #expect(chained)
        #expect(changes.count == 8 * 300)
        #expect(changes.last?[0] == count.value)
    }

    /// Eight threads observe, set and dispose: no observer is called after its dispose
    /// returned, and permanent observers hear every change.
    @Test func stressEightThreadsNoDeliveryAfterDispose() async {
        let count = Observable(0, fires: .always)
        let permanent = Counter()
        count.observe().didChange { _, _ in permanent.increment() }
        let afterDispose = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await runOnThread {
                        for round in 0..<300 {
                            let disposed = Box(false)
                            let observation = count.observe().didChange { _, _ in
                                sched_yield()
                                if disposed.get() { afterDispose.increment() }
                            }
                            count.value = round
                            count.update { $0 += 1 }
                            observation.dispose()
                            disposed.set(true)
                        }
                    }
                }
            }
        }
        #expect(afterDispose.count == 0)
        #expect(permanent.count == 8 * 300 * 2)
    }
}
