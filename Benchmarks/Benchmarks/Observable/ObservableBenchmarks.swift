import Benchmark
import BenchmarkSupport
import Componentry
import Foundation
import Observation
import OpenCombine
import Synchronization

// Observable set + notify, side by side with:
//   floor     — a Mutex-protected value and array of closures (set and copy under the
//               lock, call outside)
//   OpenCombine's CurrentValueSubject (send with N sinks)
//   Observation (an @Observable class; each of N observers re-registers
//                withObservationTracking after every change, as it must)
// and routing an event up a 10-level responder chain, side by side with calling a
// closure handed down 10 levels. Each benchmark measures `scalingFactor` operations per
// iteration, so the reported time is per set (or per event).

/// Where observers write, so that the optimizer cannot drop them.
nonisolated(unsafe) var sink = 0
/// Where observers that run on several threads at once write.
let sink2 = Atomic<Int>(0)

/// The floor: what any thread-safe observable value must at least do.
final class MutexObservable: Sendable {
    private let state = Mutex<(value: Int, observers: [@Sendable (Int, Int) -> Void])>((0, []))

    func observe(_ observer: @escaping @Sendable (Int, Int) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    func unobserveLast() {
        state.withLock { _ = $0.observers.popLast() }
    }

    func set(_ value: Int) {
        let (old, observers) = state.withLock { state in
            defer { state.value = value }
            return (state.value, state.observers)
        }
        for observer in observers { observer(value, old) }
    }
}

@Observable
final class Model: @unchecked Sendable {
    var value = 0
}

/// One Observation observer: tracks `model.value` again after every change.
final class Tracker: @unchecked Sendable {
    let model: Model

    init(model: Model) {
        self.model = model
        track()
    }

    func track() {
        withObservationTracking {
            sink &+= model.value
        } onChange: {
            sink &+= 1
        }
    }
}

// MARK: Responder chain

extension ResponderEvent<Int> {
    static var tick: Self { Self("tick") }
}

@MainActor
final class Level: Responder {
    let parent: (any Responder)?
    var nextInChain: (any Responder)? { parent }

    init(parent: (any Responder)?) {
        self.parent = parent
    }
}

@MainActor
final class Top: Responder, ResponderEventHandling {
    var nextInChain: (any Responder)? { nil }

    static func registerHandlers(in table: inout ResponderHandlerTable<Top>) {
        table.on(.tick) { _, value in sink &+= value }
    }
}

/// The alternative the responder chain replaces: each layer hands the closure to the next.
final class ClosureLayer {
    let child: ClosureLayer?
    let onTick: (Int) -> Void

    init(depth: Int, onTick: @escaping (Int) -> Void) {
        self.onTick = onTick
        child = depth > 1 ? ClosureLayer(depth: depth - 1, onTick: onTick) : nil
    }

    var leaf: ClosureLayer { child?.leaf ?? self }
}

/// Runs `body` on the main actor from whatever thread the harness uses.
func onMainActor(_ body: @MainActor () -> Void) {
    if Thread.isMainThread {
        MainActor.assumeIsolated(body)
    } else {
        DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
    }
}

let observerCounts = [1, 10, 100]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .microbenchmark

    // MARK: set + notify

    for observers in observerCounts {
        Benchmark("set+notify/\(observers) observers/Observable") { benchmark in
            let observable = Componentry.Observable(0)
            let observations = (0..<observers).map { _ in observable.observe().didChange { new, _ in sink &+= new } }
            observable.value = -1  // warm up outside the measurement
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { observable.value = i }
            benchmark.stopMeasurement()
            observations.forEach { $0.dispose() }
        }

        Benchmark("set+notify/\(observers) observers/Observable owner-bound") { benchmark in
            let observable = Componentry.Observable(0)
            let owner = NSObject()
            for _ in 0..<observers { observable.observe().owner(owner).didChange { _, new, _ in sink &+= new } }
            observable.value = -1
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { observable.value = i }
            benchmark.stopMeasurement()
            withExtendedLifetime(owner) {}
        }

        Benchmark("set+notify/\(observers) observers/floor (Mutex value and array)") { benchmark in
            let observable = MutexObservable()
            for _ in 0..<observers { observable.observe { new, _ in sink &+= new } }
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { observable.set(i) }
        }

        // Sets on two threads while a third observes and disposes. Time is per set of the
        // measuring thread.
        Benchmark("set+notify/\(observers) observers/Observable, 2 setting threads + 1 observing") { benchmark in
            let observable = Componentry.Observable(0)
            let observations = (0..<observers).map { _ in
                observable.observe().didChange { new, _ in sink2.add(new, ordering: .relaxed) }
            }
            contended(benchmark, operation: { observable.value = $0 }) {
                observable.observe().didChange { new, _ in sink2.add(new, ordering: .relaxed) }.dispose()
            }
            observations.forEach { $0.dispose() }
        }

        Benchmark("set+notify/\(observers) observers/Observable owner-bound, 2 setting threads + 1 observing") { benchmark in
            let observable = Componentry.Observable(0)
            let owner = SharedOwner()
            for _ in 0..<observers { observable.observe().owner(owner).didChange { _, new, _ in sink2.add(new, ordering: .relaxed) } }
            contended(benchmark, operation: { observable.value = $0 }) {
                observable.observe().owner(owner).didChange { _, new, _ in sink2.add(new, ordering: .relaxed) }.dispose()
            }
            withExtendedLifetime(owner) {}
        }

        Benchmark("set+notify/\(observers) observers/floor (Mutex value and array), 2 setting threads + 1 observing") { benchmark in
            let observable = MutexObservable()
            for _ in 0..<observers { observable.observe { new, _ in sink2.add(new, ordering: .relaxed) } }
            contended(benchmark, operation: { observable.set($0) }) {
                observable.observe { new, _ in sink2.add(new, ordering: .relaxed) }
                observable.unobserveLast()
            }
        }

        Benchmark("set+notify/\(observers) observers/OpenCombine CurrentValueSubject") { benchmark in
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellables = (0..<observers).map { _ in subject.sink { sink &+= $0 } }
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { subject.send(i) }
            benchmark.stopMeasurement()
            withExtendedLifetime(cancellables) {}
        }

        Benchmark("set+notify/\(observers) observers/Observation withObservationTracking") { benchmark in
            let model = Model()
            let trackers = (0..<observers).map { _ in Tracker(model: model) }
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                model.value = i
                for tracker in trackers { tracker.track() }
            }
            benchmark.stopMeasurement()
        }
    }

    // MARK: routing up 10 levels

    Benchmark("route/10 levels/ResponderChain raise") { benchmark in
        nonisolated(unsafe) let benchmark = benchmark  // used on the main actor while the harness waits
        onMainActor {
            let top = Top()
            var leaf: any Responder = top
            for _ in 1..<10 { leaf = Level(parent: leaf) }
            leaf.raise(.tick, 0)  // build the handler tables outside the measurement
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { leaf.raise(.tick, i) }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("route/10 levels/closure handed down") { benchmark in
        let leaf = ClosureLayer(depth: 10) { sink &+= $0 }.leaf
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { leaf.onTick(i) }
        benchmark.stopMeasurement()
    }
}
