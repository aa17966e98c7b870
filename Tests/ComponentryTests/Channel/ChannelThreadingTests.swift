import Componentry
import Dispatch
import Foundation
import Testing

@MainActor
@Suite("Channel threading")
struct ChannelThreadingTests {
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

    /// A plain bound property (`AccountHeader.likeCount`) is set on the main actor only,
    /// however many threads emit: the compiler refuses a set from elsewhere, and the
    /// channel hands every emit over, in the order each thread made them.
    @Test func emitsFromOtherThreadsAreAppliedOnTheMainActorInOrder() async {
        let channel = SyncChannel()
        let header = AccountHeader(id: "42", channel: channel)
        let row = AccountRow(id: "42", channel: channel)
        let seen = Recorder<Int>()
        row.$likes.observe().didChange { new, _ in
            MainActor.assertIsolated()
            seen.append(new.value)
        }
        await runOnThread {
            for value in 1...100 { channel.emit(.likes, value, to: .account, id: "42") }
        }
        await drainMainQueue()
        #expect(seen.values == Array(1...100))
        #expect(header.likeCount == 100)
    }

    /// Eight threads emit by id while the main actor creates and frees copies of the
    /// entity and of others, and emits from them. Copies that live throughout hear every
    /// emit (each value is new), each emit is traced once, and once the threads are done
    /// only those copies are left in the pool.
    @Test func stressEightThreadsEmitWhileTheMainActorCreatesAndFreesObjects() async {
        let channel = SyncChannel()
        let traces = Counter()
        channel.tracer = { _ in traces.increment() }
        let permanent = (0..<3).map { _ in AccountRow(id: "hot", channel: channel) }
        let heard = permanent.map { row in
            let counter = Counter()
            row.$likes.observe().didChange { _, _ in counter.increment() }
            return counter
        }
        let threads = 8
        let rounds = 300

        async let emitters: Void = withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    await runOnThread {
                        for round in 1...rounds {
                            channel.emit(.likes, thread * 1_000_000 + round, to: .account, id: "hot")
                            channel.emit(.starred, round.isMultiple(of: 3), to: .account, id: "\(thread)-\(round % 10)")
                        }
                    }
                }
            }
        }
        for round in 1...rounds {
            let copy = AccountRow(id: "hot", channel: channel)
            let other = AccountHeader(id: "main-\(round % 10)", channel: channel)
            copy.emit(.likes, -round)
            other.emit(.starred, true)
            await Task.yield()  // lets emits handed over meanwhile run between rounds
        }
        await emitters
        await drainMainQueue()  // every emit handed over has been applied

        let emits = threads * rounds + rounds
        #expect(heard.map(\.count) == Array(repeating: emits, count: 3))
        #expect(traces.count == 2 * emits)
        #expect(channel.snapshot().objectCounts == ["account": 3])
        #expect(channel.snapshot().identityCount == 1)
        withExtendedLifetime(permanent) {}
    }
}
