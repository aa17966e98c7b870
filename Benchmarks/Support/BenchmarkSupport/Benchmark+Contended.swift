import Benchmark
import Dispatch
import Synchronization

/// An owner that helper threads may share.
package final class SharedOwner: Sendable {
    package init() {}
}

/// Measures `operation` (a post, a set) on the benchmark's thread while another thread
/// runs it too, with -1, and a third runs `churn` (a subscribe or observe, then its
/// dispose) in a loop.
package func contended(
    _ benchmark: Benchmark, operation: @escaping @Sendable (Int) -> Void, churn: @escaping @Sendable () -> Void
) {
    let stop = StopFlag()
    let helpers = DispatchGroup()
    DispatchQueue.global().async(group: helpers) {
        while !stop.isSet { operation(-1) }
    }
    DispatchQueue.global().async(group: helpers) {
        while !stop.isSet { churn() }
    }
    benchmark.startMeasurement()
    for i in benchmark.scaledIterations { operation(i) }
    benchmark.stopMeasurement()
    stop.set()
    helpers.wait()
}

/// A stop signal for helper threads.
private final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)
    var isSet: Bool { stopped.load(ordering: .relaxed) }
    func set() { stopped.store(true, ordering: .relaxed) }
}
