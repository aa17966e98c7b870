// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that the library never depends on the
// benchmark harness. Run from this folder, in release mode:
//
//     swift package benchmark --target EventBusBenchmarks
let package = Package(
    name: "TallyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tally", path: ".."),
        .package(name: "TallyServer", path: "../Server"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "EventBusBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Componentry", package: "Tally"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/EventBus",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ComponentsBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Componentry", package: "Tally"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Components",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ObservableBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Componentry", package: "Tally"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/Observable",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ChannelBenchmarks",
            dependencies: [
                .product(name: "Componentry", package: "Tally"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Channel",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ListBenchmarks",
            dependencies: [
                .product(name: "SeededRandom", package: "Tally"),
                .product(name: "ComponentryList", package: "Tally"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/List",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "UserSetBenchmarks",
            dependencies: [
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "SeededRandom", package: "Tally"),
                .product(name: "BitCollections", package: "swift-collections"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/UserSet",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PipelineBenchmarks",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyServer", package: "TallyServer"),
                .product(name: "TallyServerTesting", package: "TallyServer"),
                .product(name: "TallyTracker", package: "Tally"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Pipeline",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DashboardBenchmarks",
            dependencies: [
                "DashboardWorkload", .product(name: "TallyEvent", package: "Tally"),
                .product(name: "TallyDashboard", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Dashboard",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .target(
            name: "DashboardWorkload",
            dependencies: [
                .product(name: "SeededRandom", package: "Tally"), .product(name: "TallyEvent", package: "Tally"),
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Support/DashboardWorkload",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "DashboardLive",
            dependencies: [
                .product(name: "TallyEvent", package: "Tally"),
                "DashboardWorkload", .product(name: "TallyApp", package: "TallyServer"),
                .product(name: "TallyDashboard", package: "TallyServer"),
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tools/DashboardLive",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Support/BenchmarkSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "PipelineWorkload",
            dependencies: [
                .product(name: "TallyEvent", package: "Tally"),
                .product(name: "SeededRandom", package: "Tally"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Support/PipelineWorkload",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "AnalyticsVersusDuckDB",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/AnalyticsVersusDuckDB",
            exclude: ["duckdb_side.py"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FunnelVersusClickHouse",
            dependencies: [
                "PipelineWorkload", .product(name: "TallyApp", package: "TallyServer"),
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/FunnelVersusClickHouse",
            exclude: ["funnel_side.py"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "PathsVersusDuckDB",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/PathsVersusDuckDB",
            exclude: ["paths_side.py"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "DeletionBesideIngest",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/DeletionBesideIngest",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "PruneWhileIngesting",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/PruneWhileIngesting",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "AlertLatency",
            dependencies: [
                .product(name: "Locking", package: "Tally"),
                .product(name: "TallyServer", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Tools/AlertLatency",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "TimelineOnFixture",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/TimelineOnFixture",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "UserDeletionOnFixture",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/UserDeletionOnFixture",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ReadsBesideIngest",
            dependencies: [
                "PipelineWorkload", .product(name: "TallyApp", package: "TallyServer"),
                .product(name: "TallyDashboard", package: "TallyServer"),
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "TallyEvent", package: "Tally"),
            ],
            path: "Tools/ReadsBesideIngest",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ExportVersusSQLite",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            path: "Tools/ExportVersusSQLite",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "IngestOnOneCore",
            dependencies: [
                "PipelineWorkload",
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyServer", package: "TallyServer"),
                .product(name: "TallyServerTesting", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "TallyStoreTesting", package: "TallyServer"),
            ],
            path: "Tools/IngestOnOneCore",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ConnectionFlood",
            dependencies: [
                .product(name: "TallyApp", package: "TallyServer"),
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyServerTesting", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "TallyStoreTesting", package: "TallyServer"),
            ],
            path: "Tools/ConnectionFlood",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
