import Componentry
import Dispatch
import Foundation
import Testing

@Suite("Channel threading")
struct ChannelThreadingTests {
    @MainActor
    @Test func anEmitFromABackgroundThreadIsAppliedOnTheMainActor() async {
        let channel = SyncChannel()
        let row = AccountRow(id: "42", channel: channel)
        let seen = Recorder<SyncedValue<Int>>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            row.$likes.observe().didChange { new, _ in
                MainActor.assertIsolated()  // traps, failing the run, if not on the main actor
                seen.append(new)
                continuation.resume()
            }
            Thread.detachNewThread { channel.emit(.likes, 3, to: .account, id: "42") }
        }
        #expect(seen.values.map(\.value) == [3])
        #expect(row.likes == 3)
    }

    @Test func anEmitOnTheExecutorQueueAppliesBeforeItReturns() {
        let (channel, queue) = queueChannel()
        queue.sync {
            let row = AccountRow(id: "42", channel: channel)
            channel.emit(.likes, 3, to: .account, id: "42")
            #expect(row.likes == 3)
        }
    }

    @Test func anEmitFromElsewhereIsAppliedOnTheExecutorQueueInOrder() async {
        let (channel, queue) = queueChannel()
        let row = queue.sync { AccountRow(id: "42", channel: channel) }
        let seen = Recorder<Int>()
        let done = DispatchSemaphore(value: 0)
        queue.sync {
            _ = row.$likes.observe().didChange { new, _ in
                dispatchPrecondition(condition: .onQueue(queue))  // traps if applied elsewhere
                seen.append(new.value)
                if new.value == 100 { done.signal() }
            }
        }
        for value in 1...100 { channel.emit(.likes, value, to: .account, id: "42") }
        await waitFor(done)
        #expect(seen.values == Array(1...100))
    }

    /// Eight threads emit while they create and free copies of the entity and of others.
    /// Copies that live throughout hear every emit (each value is new), each emit is
    /// traced once, and once the threads are done only those copies are left in the pool.
    @Test func stressEightThreadsEmitWhileObjectsAreCreatedAndFreed() async {
        let (channel, queue) = queueChannel("test.channel.stress")
        let traces = Counter()
        channel.tracer = { _ in traces.increment() }
        let permanent = queue.sync { (0..<3).map { _ in AccountRow(id: "hot", channel: channel) } }
        let heard = permanent.map { row in
            let counter = Counter()
            queue.sync { _ = row.$likes.observe().didChange { _, _ in counter.increment() } }
            return counter
        }
        let threads = 8
        let rounds = 300

        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    await runOnThread {
                        for round in 1...rounds {
                            let value = thread * 1_000_000 + round
                            let copy = AccountRow(id: "hot", channel: channel)
                            let other = AccountHeader(id: "\(thread)-\(round % 10)", channel: channel)
                            if round.isMultiple(of: 2) {
                                copy.emit(.likes, value)
                            } else {
                                channel.emit(.likes, value, to: .account, id: "hot")
                            }
                            channel.emit(.starred, round.isMultiple(of: 3), to: .account, id: other.id)
                            withExtendedLifetime((copy, other)) {}
                        }
                    }
                }
            }
        }
        queue.sync {}  // every emit handed to the queue has been applied

        #expect(heard.map(\.count) == Array(repeating: threads * rounds, count: 3))
        #expect(traces.count == threads * rounds * 2)
        #expect(channel.snapshot().objectCounts == [.account: 3])
        #expect(channel.snapshot().identityCount == 1)
        withExtendedLifetime(permanent) {}
    }
}
