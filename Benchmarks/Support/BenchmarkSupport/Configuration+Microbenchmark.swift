import Benchmark

extension Benchmark.Configuration {
    /// The default of the micro-benchmarks (event bus, observables, components): wall clock,
    /// allocations and throughput per operation in nanoseconds, with each iteration scaled to
    /// 1,000 operations, for up to 2 seconds or a million iterations.
    package static var microbenchmark: Self {
        Self(
            metrics: [.wallClock, .mallocCountTotal, .throughput],
            timeUnits: .nanoseconds,
            scalingFactor: .kilo,
            maxDuration: .seconds(2),
            maxIterations: 1_000_000
        )
    }
}
