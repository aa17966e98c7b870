// swift-tools-version: 6.1
import PackageDescription

// The ingest fuzzer lives in its own package so that only it is built with libFuzzer. Build
// and run from this folder (the flags instrument every module, so the whole decoder is
// covered):
//
//     swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//     .build/debug/IngestFuzzer Corpus/ingest -runs=20000      (CI: a fixed number of inputs)
//     .build/debug/IngestFuzzer $(mktemp -d) Corpus/ingest -max_total_time=3600   (an hour, new inputs kept apart)
let package = Package(
    name: "TallyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Tally", path: "..")],
    targets: [
        .executableTarget(
            name: "IngestFuzzer",
            dependencies: [.product(name: "TallyServer", package: "Tally")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
