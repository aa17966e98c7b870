// swift-tools-version: 6.1
import PackageDescription

/// libFuzzer targets over the collector's input handling and the store's rollups, built apart from the product because
/// every module must be compiled with `--sanitize=fuzzer`:
///
///     swift build --package-path Fuzz --sanitize=fuzzer
///     Fuzz/.build/debug/IngestFuzzer -runs=20000 SCRATCH_CORPUS Fuzz/Corpus/ingest
///     Fuzz/.build/debug/AlertFuzzer -runs=20000 SCRATCH_CORPUS Fuzz/Corpus/alerts
///     Fuzz/.build/debug/RollupFuzzer -runs=20000 SCRATCH_CORPUS Fuzz/Corpus/rollups
///
/// A debug build: the fuzzer reaches the decoder's internal types through `@testable import`,
/// which a debug build allows.
let package = Package(
    name: "TallyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tally", path: ".."),
        .package(name: "TallyServer", path: "../Server"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // The ingest decoder: the JSON parser, the envelope, event validation and gzip.
        .executableTarget(
            name: "IngestFuzzer",
            dependencies: [
                .product(name: "TallyEvent", package: "Tally"),
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyServer", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The rollups' structures: stored user sets and bucket logs, and the day logs and day
        // sessions derived from them.
        .executableTarget(
            name: "RollupFuzzer",
            dependencies: [.product(name: "TallyStore", package: "TallyServer")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Alert rules and the webhook outbox: URL checks, rule fields, outbox rows.
        .executableTarget(
            name: "AlertFuzzer",
            dependencies: [
                .product(name: "TallyHTTP", package: "TallyServer"),
                .product(name: "TallyServer", package: "TallyServer"),
                .product(name: "TallyStore", package: "TallyServer"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
