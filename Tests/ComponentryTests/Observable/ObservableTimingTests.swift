import Componentry
import Dispatch
import Foundation
import Testing

@Suite("Observable timing")
struct ObservableTimingTests {
    @Test func debounceCommitsOnceWithTheLastValue() async {
        let query = Observable("", timing: .debounce(.milliseconds(30)))
        let seen = Recorder<String>()
        query.observe().didChange { new, _ in seen.append(new) }
        for text in ["z", "za", "zao", "早", "早饭"] { query.value = text }
        #expect(query.value == "")  // nothing committed yet
        #expect(await eventually { seen.count == 1 })
        try? await Task.sleep(nanoseconds: 90_000_000)  // and nothing more comes
        #expect(seen.values == ["早饭"])
        #expect(query.value == "早饭")
    }

    /// Eight threads set at once; then one last value is set. However the pending timers
    /// fire, the value committed last is that last value.
    @Test func debounceRaceOnEightThreadsCommitsTheLastValueSet() async {
        let value = Observable(-1, timing: .debounce(.milliseconds(20)))
        let seen = Recorder<Int>()
        value.observe().didChange { new, _ in seen.append(new) }
        for _ in 0..<5 {
            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<8 {
                    group.addTask {
                        await runOnThread {
                            for step in 0..<500 {
                                value.value = thread * 1_000 + step
                                if step % 100 == 0 { usleep(5_000) }  // let timers fire mid-race
                            }
                        }
                    }
                }
            }
        }
        value.value = 99_999
        #expect(await eventually { seen.values.last == 99_999 })
        try? await Task.sleep(nanoseconds: 60_000_000)
        #expect(seen.values.last == 99_999)
        #expect(value.value == 99_999)
        #expect(seen.count < 8 * 500 * 5)
    }

    @Test func debouncedUpdatesOnEightThreadsLoseNothing() async {
        let counter = Observable(0, timing: .debounce(.milliseconds(20)))
        let seen = Recorder<Int>()
        counter.observe().didChange { new, _ in seen.append(new) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { await runOnThread { for _ in 0..<500 { counter.update { $0 += 1 } } } }
            }
        }
        #expect(await eventually { seen.values.last == 4_000 })
        #expect(counter.value == 4_000)
    }

    @Test func throttleCommitsTheFirstAtOnceAndTheLastAtTheIntervalsEnd() async {
        let position = Observable(0, timing: .throttle(.milliseconds(40)))
        let seen = Recorder<Int>()
        position.observe().didChange { new, _ in seen.append(new) }
        position.value = 1
        #expect(seen.values == [1])  // committed on the setting thread
        position.value = 2
        position.value = 3
        #expect(seen.values == [1])
        #expect(await eventually { seen.values == [1, 3] })
        try? await Task.sleep(nanoseconds: 100_000_000)
        #expect(seen.values == [1, 3])
    }

    @Test func anIntervalTooLongToExpressHoldsTheValueInsteadOfTrapping() {
        let debounced = Observable(0, timing: .debounce(.seconds(Int64.max)))
        debounced.value = 1
        #expect(debounced.value == 0)  // pending, never committed
        let throttled = Observable(0, timing: .throttle(.seconds(Int64.max)))
        throttled.value = 1  // after a quiet interval: at once
        throttled.value = 2  // held
        #expect(throttled.value == 1)
    }

    @Test func aNegativeIntervalCountsAsNone() async {
        let query = Observable("", timing: .debounce(.seconds(-5)))
        query.value = "now"
        #expect(await eventually { query.value == "now" })
    }
}
