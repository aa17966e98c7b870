// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode (complete strict concurrency
/// checking is the Swift 6 default) and upcoming features that keep APIs honest.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Componentry", targets: ["Componentry"]),
    ],
    targets: [
        // The pattern library: Foundation only.
        .target(name: "Componentry", swiftSettings: strict),

        .testTarget(name: "ComponentryTests", dependencies: ["Componentry"], swiftSettings: strict),
    ]
)
