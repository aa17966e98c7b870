// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode (complete strict concurrency
/// checking is the Swift 6 default) and upcoming features that keep APIs honest.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The collector, the store, the dashboard and the `tally` command, over the client
// libraries of the package one folder up (`..`), which apps depend on without this one.
let package = Package(
    name: "TallyServer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TallyStore", targets: ["TallyStore"]),
        .library(name: "TallyHTTP", targets: ["TallyHTTP"]),
        .library(name: "TallyServer", targets: ["TallyServer"]),
        .library(name: "TallyStoreTesting", targets: ["TallyStoreTesting"]),
        .library(name: "TallyServerTesting", targets: ["TallyServerTesting"]),
        .library(name: "TallyDashboard", targets: ["TallyDashboard"]),
        .library(name: "TallyApp", targets: ["TallyApp"]),
        .executable(name: "tally", targets: ["tally"]),
    ],
    dependencies: [
        .package(name: "Tally", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // Storage, rollups and exact metrics over SQLite or PostgreSQL.
        .target(
            name: "TallyStore",
            dependencies: [
                .product(name: "Locking", package: "Tally"),
                .product(name: "TallyEvent", package: "Tally"), .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),

        // Test helpers: a fresh store on each database the tests run on.
        .target(
            name: "TallyStoreTesting",
            dependencies: ["TallyStore", .product(name: "PostgresNIO", package: "postgres-nio")],
            swiftSettings: strict
        ),

        // What every HTTP surface shares: the server's configuration and connection guard,
        // client addresses behind proxies, rate limits, security headers.
        .target(
            name: "TallyHTTP",
            dependencies: [
                .product(name: "Locking", package: "Tally"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // The collector: HTTP ingest and metrics over TallyStore.
        .target(
            name: "TallyServer",
            dependencies: [
                .product(name: "TallyEvent", package: "Tally"), .product(name: "Locking", package: "Tally"), "TallyHTTP", "TallyStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/openapi.json")],
            swiftSettings: strict
        ),

        // The live dashboard: layout configuration, section components, pages, and the routes
        // that serve them.
        .target(
            name: "TallyDashboard",
            dependencies: [
                .product(name: "TallyEvent", package: "Tally"), .product(name: "Componentry", package: "Tally"),
                .product(name: "ComponentryList", package: "Tally"), .product(name: "Locking", package: "Tally"), "TallyHTTP", "TallyStore",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [
                .copy("Resources/default-dashboard.yaml"), .copy("Resources/templates"),
                .copy("Resources/dashboard.js"), .copy("Resources/dashboard.css"), .copy("Resources/icon.svg"),
            ],
            swiftSettings: strict
        ),

        // The one composition of the server: the collector and the dashboard on one
        // application over one store, with the services that keep the store. `tally serve`
        // runs it, the tests test it and the benchmarks measure it.
        .target(
            name: "TallyApp",
            dependencies: [
                .product(name: "Componentry", package: "Tally"), "TallyHTTP", "TallyStore", "TallyServer", "TallyDashboard",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // Test support for servers: the application on an ephemeral port, child processes.
        .target(
            name: "TallyServerTesting",
            dependencies: [
                "TallyApp", "TallyDashboard", "TallyHTTP", "TallyServer", "TallyStoreTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),

        // The `tally` command.
        .target(name: "CMalloc"),
        .executableTarget(
            name: "tally",
            dependencies: [
                "CMalloc", .product(name: "Locking", package: "Tally"),
                .product(name: "TallyTracker", package: "Tally"), .product(name: "SeededRandom", package: "Tally"), "TallyHTTP", "TallyStore",
                "TallyServer", "TallyDashboard", "TallyApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        .executableTarget(
            name: "IngestingClient", dependencies: [.product(name: "TallyTracker", package: "Tally")], path: "Tests/Fixtures/IngestingClient",
            swiftSettings: strict),
        .testTarget(
            name: "TallyDashboardTests",
            dependencies: [
                "TallyApp", "TallyHTTP", .product(name: "TallyEvent", package: "Tally"),
                "TallyDashboard", .product(name: "Componentry", package: "Tally"), .product(name: "ComponentryList", package: "Tally"), "TallyStore",
                "TallyServer", "TallyServerTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TallyStoreTests",
            dependencies: [
                .product(name: "TallyEvent", package: "Tally"),
                "TallyStore", "TallyStoreTesting", .product(name: "SeededRandom", package: "Tally"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            // Databases written by earlier versions, which the upgrade tests open.
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TallyServerTests",
            dependencies: [
                "TallyHTTP", .product(name: "TallyEvent", package: "Tally"),
                "TallyServer", "TallyServerTesting", "TallyStoreTesting", .product(name: "TallyTracker", package: "Tally"), "TallyDashboard",
                .product(name: "SeededRandom", package: "Tally"), "tally", "TallyApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The system in real processes: collectors and PostgreSQL crashed under load from SDKs in
        // child processes; sustained ingest and many live dashboards on loopback.
        .testTarget(
            name: "TallySystemTests",
            dependencies: [
                "TallyHTTP", .product(name: "TallyEvent", package: "Tally"),
                "TallyStore", "TallyStoreTesting", "TallyServerTesting", "TallyDashboard", .product(name: "SeededRandom", package: "Tally"), "tally",
                "IngestingClient",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
    ]
)
