import Dispatch
import Locking
import Testing

@Suite("Locked")
struct LockedTests {
    @Test func concurrentIncrementsUnderTheLockLoseNone() {
        let counter = Locked(0)
        let (threads, increments) = (8, 20_000)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == threads * increments)
    }

    @Test func aNoncopyableValueIsGuardedAndEndsWithTheLock() {
        let ends = Ends()
        do {
            let locked = Locked(Owner(ends: ends))
            locked.withLock { $0.count += 2 }
            #expect(locked.withLock { $0.count } == 2)
            #expect(ends.count.withLock { $0 } == 0)
        }
        #expect(ends.count.withLock { $0 } == 1)
    }

    @Test func aTypedErrorThrownUnderTheLockReachesTheCallerAndUnlocks() {
        let locked = Locked([Int]())
        #expect(throws: Refusal.self) {
            try locked.withLock { (values: inout [Int]) throws(Refusal) in
                values.append(1)
                throw Refusal()
            }
        }
        // The lock was released: taking it again does not deadlock.
        #expect(locked.withLock { $0 } == [1])
    }

    @Test func aValueMoreAlignedThanTheLockKeepsItsBits() {
        let locked = Locked(SIMD4<Double>(1, 2, 3, 4))
        locked.withLock { $0 *= 2 }
        #expect(locked.withLock { $0 } == SIMD4<Double>(2, 4, 6, 8))
    }
}

struct Refusal: Error {}

final class Ends: Sendable {
    let count = Locked(0)
}

/// A noncopyable value that counts its ends in `ends`.
struct Owner: ~Copyable {
    let ends: Ends
    var count = 0

    deinit {
        ends.count.withLock { $0 += 1 }
    }
}
