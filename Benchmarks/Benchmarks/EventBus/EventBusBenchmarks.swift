import Benchmark
import BenchmarkSupport
import Componentry
import Foundation
import OpenCombine
import Synchronization

// Post cost and subscribe + dispose cost of EventBus, side by side with:
//   floor     — a Mutex-protected array of closures (copy under the lock, call outside)
//   NotificationCenter
//   OpenCombine's PassthroughSubject
// Each benchmark measures `scalingFactor` operations per iteration, so the reported
// time is per post (or per subscribe + dispose).

struct Tick: BusEvent {
    let value: Int
}

/// Where handlers write, so that the optimizer cannot drop them.
nonisolated(unsafe) var sink = 0
/// Where handlers that run on several threads at once write.
let sink2 = Atomic<Int>(0)

/// The floor: what any thread-safe bus must at least do.
final class MutexArrayBus: Sendable {
    private let handlers = Mutex<[@Sendable (Int) -> Void]>([])

    /// Appends a handler; returns its index for removal.
    func subscribe(_ handler: @escaping @Sendable (Int) -> Void) -> Int {
        handlers.withLock {
            $0.append(handler)
            return $0.count - 1
        }
    }

    func unsubscribeLast() {
        handlers.withLock { _ = $0.popLast() }
    }

    func post(_ value: Int) {
        for handler in handlers.withLock({ $0 }) { handler(value) }
    }
}

let postCounts = [1, 10, 100]
let liveCounts = [1_000, 100_000]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .microbenchmark

    // MARK: post

    for subscribers in postCounts {
        Benchmark("post/\(subscribers) subscribers/EventBus") { benchmark in
            let bus = EventBus()
            let subscriptions = (0..<subscribers).map { _ in bus.on(Tick.self).handle { sink &+= $0.value } }
            bus.post(Tick(value: 0))  // build the snapshot outside the measurement
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { bus.post(Tick(value: i)) }
            benchmark.stopMeasurement()
            subscriptions.forEach { $0.dispose() }
        }

        Benchmark("post/\(subscribers) subscribers/EventBus owner-bound") { benchmark in
            let bus = EventBus()
            let owner = NSObject()
            for _ in 0..<subscribers { bus.on(Tick.self).owner(owner).handle { _, tick in sink &+= tick.value } }
            bus.post(Tick(value: 0))
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { bus.post(Tick(value: i)) }
            benchmark.stopMeasurement()
            withExtendedLifetime(owner) {}
        }

        Benchmark("post/\(subscribers) subscribers/floor (Mutex array)") { benchmark in
            let bus = MutexArrayBus()
            for _ in 0..<subscribers { _ = bus.subscribe { sink &+= $0 } }
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { bus.post(i) }
        }

        // The floor plus what an owner-bound delivery must add in Swift: each handler
        // loads its weak owner (held strongly while it runs) before it does the work.
        Benchmark("post/\(subscribers) subscribers/floor (Mutex array), weak owner per handler") { benchmark in
            let bus = MutexArrayBus()
            let owner = SharedOwner()
            for _ in 0..<subscribers {
                _ = bus.subscribe { [weak owner] value in
                    guard let owner else { return }
                    withExtendedLifetime(owner) { sink &+= value }
                }
            }
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { bus.post(i) }
            benchmark.stopMeasurement()
            withExtendedLifetime(owner) {}
        }

        Benchmark("post/\(subscribers) subscribers/EventBus owner-bound, one owner each") { benchmark in
            let bus = EventBus()
            let owners = (0..<subscribers).map { _ in NSObject() }
            for owner in owners { bus.on(Tick.self).owner(owner).handle { _, tick in sink &+= tick.value } }
            bus.post(Tick(value: 0))
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { bus.post(Tick(value: i)) }
            benchmark.stopMeasurement()
            withExtendedLifetime(owners) {}
        }

        // Posts on two threads while a third subscribes and disposes: what contention
        // between posters, and snapshots rebuilt under them, cost. Time is per post of
        // the measuring thread.
        Benchmark("post/\(subscribers) subscribers/EventBus, 2 posting threads + 1 subscribing") { benchmark in
            let bus = EventBus()
            let subscriptions = (0..<subscribers).map { _ in bus.on(Tick.self).handle { sink2.add($0.value, ordering: .relaxed) } }
            contended(benchmark, operation: { bus.post(Tick(value: $0)) }) {
                bus.on(Tick.self).handle { sink2.add($0.value, ordering: .relaxed) }.dispose()
            }
            subscriptions.forEach { $0.dispose() }
        }

        Benchmark("post/\(subscribers) subscribers/EventBus owner-bound, 2 posting threads + 1 subscribing") { benchmark in
            let bus = EventBus()
            let owner = SharedOwner()
            for _ in 0..<subscribers { bus.on(Tick.self).owner(owner).handle { _, tick in sink2.add(tick.value, ordering: .relaxed) } }
            contended(benchmark, operation: { bus.post(Tick(value: $0)) }) {
                bus.on(Tick.self).owner(owner).handle { _, tick in sink2.add(tick.value, ordering: .relaxed) }.dispose()
            }
            withExtendedLifetime(owner) {}
        }

        Benchmark("post/\(subscribers) subscribers/floor (Mutex array), 2 posting threads + 1 subscribing") { benchmark in
            let bus = MutexArrayBus()
            for _ in 0..<subscribers { _ = bus.subscribe { sink2.add($0, ordering: .relaxed) } }
            contended(benchmark, operation: { bus.post($0) }) {
                _ = bus.subscribe { sink2.add($0, ordering: .relaxed) }
                bus.unsubscribeLast()
            }
        }

        Benchmark("post/\(subscribers) subscribers/NotificationCenter") { benchmark in
            let center = NotificationCenter()
            let name = Notification.Name("tick")
            let tokens = (0..<subscribers).map { _ in
                center.addObserver(forName: name, object: nil, queue: nil) { _ in sink &+= 1 }
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { center.post(name: name, object: nil) }
            benchmark.stopMeasurement()
            tokens.forEach(center.removeObserver)
        }

        Benchmark("post/\(subscribers) subscribers/OpenCombine PassthroughSubject") { benchmark in
            let subject = PassthroughSubject<Int, Never>()
            let cancellables = (0..<subscribers).map { _ in subject.sink { sink &+= $0 } }
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { subject.send(i) }
            benchmark.stopMeasurement()
            withExtendedLifetime(cancellables) {}
        }
    }

    // MARK: subscribe + dispose

    for live in liveCounts {
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            scalingFactor: .kilo,
            maxDuration: .seconds(2),
            maxIterations: live > 10_000 ? 200 : 10_000
        )

        Benchmark("subscribe+dispose/\(live) live/EventBus", configuration: configuration) { benchmark in
            let bus = EventBus()
            let existing = (0..<live).map { _ in bus.on(Tick.self).handle { sink &+= $0.value } }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                bus.on(Tick.self).handle { sink &+= $0.value }.dispose()
            }
            benchmark.stopMeasurement()
            existing.forEach { $0.dispose() }
        }

        Benchmark("subscribe+dispose/\(live) live/floor (Mutex array)", configuration: configuration) { benchmark in
            let bus = MutexArrayBus()
            for _ in 0..<live { _ = bus.subscribe { sink &+= $0 } }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                _ = bus.subscribe { sink &+= $0 }
                bus.unsubscribeLast()
            }
        }

        Benchmark("subscribe+dispose/\(live) live/NotificationCenter", configuration: configuration) { benchmark in
            let center = NotificationCenter()
            let name = Notification.Name("tick")
            let existing = (0..<live).map { _ in
                center.addObserver(forName: name, object: nil, queue: nil) { _ in sink &+= 1 }
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                center.removeObserver(center.addObserver(forName: name, object: nil, queue: nil) { _ in sink &+= 1 })
            }
            benchmark.stopMeasurement()
            existing.forEach(center.removeObserver)
        }

        Benchmark("subscribe+dispose/\(live) live/OpenCombine PassthroughSubject", configuration: configuration) { benchmark in
            let subject = PassthroughSubject<Int, Never>()
            let existing = (0..<live).map { _ in subject.sink { sink &+= $0 } }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                subject.sink { sink &+= $0 }.cancel()
            }
            benchmark.stopMeasurement()
            withExtendedLifetime(existing) {}
        }
    }
}
