// swift-tools-version: 6.1
import PackageDescription

/// An app's package as an app team writes it: one dependency on this repository, for the SDK
/// and the pattern library, at the deployment targets most apps still support. CI resolves it
/// (nothing but this repository may be fetched) and builds it.
let package = Package(
    name: "ExampleApp",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [
        .package(name: "Tally", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ExampleApp",
            dependencies: [
                .product(name: "TallyTracker", package: "Tally"),
                .product(name: "Componentry", package: "Tally"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
