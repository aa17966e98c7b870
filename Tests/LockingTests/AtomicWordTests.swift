import Dispatch
import Locking
import Testing

@Suite("AtomicWord")
struct AtomicWordTests {
    @Test func valuesRoundTripThroughTheWord() {
        let int = AtomicWord<Int>(-5)
        #expect(int.load(ordering: .relaxed) == -5)
        int.store(.min, ordering: .releasing)
        #expect(int.load(ordering: .acquiring) == .min)

        let unsigned = AtomicWord<UInt>(.max)
        #expect(unsigned.load(ordering: .sequentiallyConsistent) == .max)

        let flag = AtomicWord<Bool>(false)
        #expect(flag.exchange(true, ordering: .sequentiallyConsistent) == false)
        #expect(flag.exchange(true, ordering: .sequentiallyConsistent) == true)
        let set = flag.load(ordering: .relaxed)
        #expect(set)
    }

    @Test func compareExchangeReportsTheValueFound() {
        let word = AtomicWord<Int>(1)
        let missed = word.compareExchange(expected: 0, desired: 2, ordering: .acquiring)
        #expect(!missed.exchanged && missed.original == 1)
        #expect(word.load(ordering: .relaxed) == 1)
        let made = word.compareExchange(expected: 1, desired: 2, ordering: .releasing)
        #expect(made.exchanged && made.original == 1)
        #expect(word.load(ordering: .relaxed) == 2)
    }

    @Test func wrappingAddWrapsAroundAtTheTop() {
        let counter = AtomicWord<UInt64>(.max)
        let (old, new) = counter.wrappingAdd(1, ordering: .relaxed)
        #expect(old == .max && new == 0)
        #expect(counter.load(ordering: .relaxed) == 0)
    }

    /// Concurrent adds lose no increment, and hand out every old value once: the old
    /// values sum to 0 + 1 + … + (n - 1).
    @Test func concurrentAddsHandOutEveryValueOnce() {
        let counter = AtomicWord<UInt64>(0)
        let (threads, adds) = (8, 100_000)
        let sums = Locked(UInt64(0))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var sum: UInt64 = 0
            for _ in 0..<adds { sum &+= counter.wrappingAdd(1, ordering: .relaxed).oldValue }
            sums.withLock { $0 &+= sum }
        }
        let total = UInt64(threads * adds)
        #expect(counter.load(ordering: .relaxed) == total)
        #expect(sums.withLock { $0 } == total * (total - 1) / 2)
    }

    /// A compare-and-exchange loop on many threads loses no increment.
    @Test func concurrentCompareExchangeLoopsLoseNoIncrement() {
        let word = AtomicWord<Int>(0)
        let (threads, increments) = (8, 20_000)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                var expected = word.load(ordering: .relaxed)
                while true {
                    let (exchanged, found) = word.compareExchange(expected: expected, desired: expected + 1, ordering: .acquiringAndReleasing)
                    if exchanged { break }
                    expected = found
                }
            }
        }
        #expect(word.load(ordering: .sequentiallyConsistent) == threads * increments)
    }

    /// A spin lock of an exchange that acquires and a store that releases guards a plain
    /// counter: no increment is lost (and ThreadSanitizer sees no race on it).
    @Test func anExchangeAndAReleasingStoreGuardPlainMemory() {
        let held = AtomicWord<Bool>(false)
        let counter = Counter()
        let (threads, increments) = (4, 5_000)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                while held.exchange(true, ordering: .acquiring) {}
                counter.value += 1
                held.store(false, ordering: .releasing)
            }
        }
        #expect(counter.value == threads * increments)
    }

    /// A value written before a releasing store is seen after an acquiring load that sees
    /// the store.
    @Test func anAcquiringLoadSeesWhatTheReleasingStorePublished() {
        for _ in 0..<200 {
            let ready = AtomicWord<UInt>(0)
            let message = Counter()
            let received = Counter()
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 {
                    message.value = 42
                    ready.store(1, ordering: .releasing)
                } else {
                    while ready.load(ordering: .acquiring) == 0 {}
                    received.value = message.value
                }
            }
            #expect(received.value == 42)
        }
    }
}

/// Plain memory the tests guard with atomics of their own.
final class Counter: @unchecked Sendable {
    var value = 0
}
