import Benchmark
import ComponentryList

// The list diff side by side with the standard library's CollectionDifference (Myers,
// then inferringMoves) on the same rows, and the layout of a large grid.
//
//   DifferenceKit's workloads: 5k rows with 1k deleted, 1k inserted, 200 shuffled;
//                              100k rows with 10k deleted, 10k inserted, 2k shuffled
//   a next page: 10k rows + 20 appended; no change: 100k rows; a swap in 10k rows
//   small edits of 1k rows: a swap, the first moved last, 10 adjacent reversed, one
//                           inserted, one deleted
//   layout: 100k items in a 4-column grid; a viewport query (time per query)

let diffWorkloads: [(name: String, workload: Workload)] = [
    ("5k: 1k deleted, 1k inserted, 200 shuffled", .random(count: 5_000, deleted: 1_000, inserted: 1_000, shuffled: 200)),
    ("100k: 10k deleted, 10k inserted, 2k shuffled", .random(count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000)),
    ("10k + 20 appended", .appended(count: 10_000, appended: 20)),
    ("100k unchanged", .unchanged(count: 100_000)),
    ("swap in 10k", .swap(count: 10_000)),
    ("1k: swap two", .swap(count: 1_000)),
    ("1k: first moved last", .firstToLast(count: 1_000)),
    ("1k: 10 adjacent reversed", .reversed(count: 1_000, reversed: 10)),
    ("1k: one inserted", .insertedOne(count: 1_000)),
    ("1k: one deleted", .deletedOne(count: 1_000)),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    for (name, workload) in diffWorkloads {
        Benchmark("diff/\(name)/ComponentryList") { benchmark in
            let (old, new) = (workload.oldSnapshot, workload.newSnapshot)
            benchmark.startMeasurement()
            blackHole(old.changes(to: new))
        }

        // Myers is O((n + m) d): about ten seconds a run on the 100k workload.
        let slow = workload.old.count >= 100_000 && workload.old != workload.new
        Benchmark(
            "diff/\(name)/CollectionDifference",
            configuration: slow ? .init(warmupIterations: 0, maxDuration: .seconds(1), maxIterations: 3) : Benchmark.defaultConfiguration
        ) { benchmark in
            let (old, new) = (workload.old, workload.new)
            benchmark.startMeasurement()
            blackHole(new.difference(from: old).inferringMoves())
        }
    }

    let grid = [
        LayoutSection(
            id: "grid",
            style: ComponentLayout(
                insets: ListInsets(all: 16), lineSpacing: 8, interitemSpacing: 8, distribution: .columns(4), itemRatio: .aspect(1)),
            itemCount: 100_000
        )
    ]
    let environment = ListEnvironment(containerWidth: 1_024)

    Benchmark("layout/100k grid items") { benchmark in
        var layout = ListLayout()
        layout.update(grid, in: environment)  // the arrays exist; measure the layout itself
        benchmark.startMeasurement()
        layout.update(grid, in: environment)
        benchmark.stopMeasurement()
        blackHole(layout.contentHeight)
    }

    Benchmark("layout/viewport query (per query)", configuration: .init(timeUnits: .nanoseconds, scalingFactor: .kilo)) { benchmark in
        var layout = ListLayout()
        layout.update(grid, in: environment)
        let step = layout.contentHeight / Double(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let top = Double(index) * step
            blackHole(layout.items(in: top..<(top + 800)))
        }
    }
}
