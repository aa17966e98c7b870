import Benchmark
import BenchmarkSupport
import Componentry

// The mediator's call cost next to a direct function call, and the component manager's
// lifecycle fan-out. Each mediator benchmark measures `scalingFactor` calls per
// iteration, so the reported time is per call:
//
//   direct            — a function call the optimizer cannot inline
//   by name           — mediator.call("Counter", "next", ["value": i])
//   typed facade      — mediator.next(i), an extension of Mediator, as modules declare them
//   cached target     — the facade, with the target cached instead of created per call
//   fan-out           — one page event (did layout) across 100 components, and a whole
//                       appear + layout + disappear cycle (6 events); time per event or
//                       cycle, `scalingFactor` of them per iteration

/// Where results go, so that the optimizer cannot drop them.
nonisolated(unsafe) var sink = 0

@inline(never)
func next(_ value: Int) -> Int {
    value &+ 1
}

final class CounterTarget: MediatorTarget {
    static let name = "Counter"

    init(mediator: Mediator) {}

    static func registerActions(in table: inout MediatorActionTable<CounterTarget>) {
        table.action("next") { _, parameters in try parameters.value("value", as: Int.self) &+ 1 }
    }
}

extension Mediator {
    func next(_ value: Int, on target: String = "Counter") throws(MediatorError) -> Int {
        try call(target, "next", ["value": value])
    }
}

final class Card: Component {
    static let identifier = "card"
    var layouts = 0

    init(context: any ComponentContext<Void>) {}

    func didLayout() { layouts &+= 1 }
}

final class Page: ComponentContext {
    let viewModel: Void = ()
    let eventBus = EventBus()
    let manager: ComponentManager<Void>

    init(components: Int) {
        let factory = ComponentFactory<Void>()
        for index in 0..<components {
            try! factory.register("card \(index)") { Card(context: $0) }
        }
        manager = ComponentManager(factory: factory)
        manager.load(ComponentOrder((0..<components).map { "card \($0)" }), context: self)
        manager.pageDidLoad()
    }

    func component<C: Component>(_ type: C.Type) -> C? { manager.component(type) }
    func reload() { manager.reload() }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .microbenchmark

    // MARK: mediator

    Benchmark("mediator/direct function call") { benchmark in
        for i in benchmark.scaledIterations { sink &+= next(i) }
    }

    let mediator = Mediator()
    try! mediator.register(CounterTarget.self)
    try! mediator.register(CounterTarget.self, as: "CachedCounter", caching: .cached)

    Benchmark("mediator/call by name") { benchmark in
        for i in benchmark.scaledIterations { sink &+= try! mediator.call("Counter", "next", ["value": i], as: Int.self) }
    }

    Benchmark("mediator/typed facade") { benchmark in
        for i in benchmark.scaledIterations { sink &+= try! mediator.next(i) }
    }

    Benchmark("mediator/typed facade, cached target") { benchmark in
        for i in benchmark.scaledIterations { sink &+= try! mediator.next(i, on: "CachedCounter") }
    }

    // MARK: components

    let fanOut = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )

    // The closures run off the main actor; each hops there and measures only the events.
    Benchmark("components/did layout across 100 components", configuration: fanOut) { benchmark async in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let page = Page(components: 100)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { page.manager.pageDidLayout() }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("components/appear, layout, disappear (6 events) across 100 components", configuration: fanOut) { benchmark async in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let page = Page(components: 100)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                page.manager.pageWillAppear()
                page.manager.pageDidAppear()
                page.manager.pageWillLayout()
                page.manager.pageDidLayout()
                page.manager.pageWillDisappear()
                page.manager.pageDidDisappear()
            }
            benchmark.stopMeasurement()
        }
    }
}
