// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode (complete strict concurrency
/// checking is the Swift 6 default) and upcoming features that keep APIs honest.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The client libraries an app links, with no dependencies: an app that adds this repository
// fetches nothing else. The collector, the store and the dashboard are the package in
// `Server/`, which depends on this one by path.
let package = Package(
    name: "Tally",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Componentry", targets: ["Componentry"]),
        .library(name: "ComponentryList", targets: ["ComponentryList"]),
        .library(name: "TallyTracker", targets: ["TallyTracker"]),
        .library(name: "TallyEvent", targets: ["TallyEvent"]),
        // Shared with the server package in `Server/`; not meant for apps.
        .library(name: "Locking", targets: ["Locking"]),
        .library(name: "SeededRandom", targets: ["SeededRandom"]),
    ],
    targets: [
        // A mutex ThreadSanitizer can see, and atomics, for this repository's modules: on
        // Synchronization on Linux; on `os_unfair_lock` and CLocking's C atomics on Apple
        // platforms, below the iOS 18 that Synchronization needs (and on Linux with
        // `-DTALLY_PORTABLE_SYNCHRONIZATION`, which tests that path).
        .target(name: "Locking", dependencies: ["CLocking"], swiftSettings: strict),
        // `static inline` C atomics over the `__atomic` builtins, for Locking's `AtomicWord`
        // where Synchronization is not available.
        .target(name: "CLocking"),

        // The pattern library: Foundation only.
        .target(name: "Componentry", dependencies: ["Locking"], swiftSettings: strict),

        // Self-managed list components, layout, diff and an HTML renderer: Foundation only.
        .target(name: "ComponentryList", swiftSettings: strict),

        // The event as the SDK, the collector, the store and the dashboard all know it: its
        // fields and rules, property values, calendar days, JSON. Foundation only.
        .target(name: "TallyEvent", swiftSettings: strict),

        // The client SDK apps embed: Foundation only (and SwiftUI's `trackScreen` where SwiftUI
        // exists). Its privacy manifest declares what it collects, for the app's privacy report.
        .target(
            name: "TallyTracker", dependencies: ["Locking", "TallyEvent"], resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strict
        ),

        // A seeded generator for reproducible test data, workloads and the demo.
        .target(name: "SeededRandom", swiftSettings: strict),

        // The mediator example (seed 001): three modules that reach each other only through
        // the mediator, each with a facade target (typed calls of its target, Componentry
        // only) that the other modules link instead of the module.
        .target(name: "ExampleBookDetailFacade", dependencies: ["Componentry"], path: "Examples/ExampleBookDetailFacade", swiftSettings: strict),
        .target(name: "ExampleReviewFacade", dependencies: ["Componentry"], path: "Examples/ExampleReviewFacade", swiftSettings: strict),
        .target(name: "ExampleReaderFacade", dependencies: ["Componentry"], path: "Examples/ExampleReaderFacade", swiftSettings: strict),
        .target(
            name: "ExampleReader", dependencies: ["Componentry", "ExampleBookDetailFacade", "ExampleReviewFacade"],
            path: "Examples/ExampleReader", swiftSettings: strict
        ),
        .target(
            name: "ExampleBookDetail",
            dependencies: ["Componentry", "ExampleBookDetailFacade", "ExampleReaderFacade", "ExampleReviewFacade"],
            path: "Examples/ExampleBookDetail", swiftSettings: strict
        ),
        .target(
            name: "ExampleReview", dependencies: ["Componentry", "ExampleReviewFacade", "ExampleBookDetailFacade"],
            path: "Examples/ExampleReview", swiftSettings: strict
        ),

        .testTarget(name: "LockingTests", dependencies: ["Locking"], swiftSettings: strict),
        .testTarget(name: "ComponentryTests", dependencies: ["Componentry"], swiftSettings: strict),
        // Links the reader and book detail modules and deliberately not ExampleReview (only
        // its facade): calls to the review module must fall back cleanly.
        .testTarget(
            name: "MediatorExampleTests",
            dependencies: ["Componentry", "ExampleReader", "ExampleBookDetail", "ExampleBookDetailFacade", "ExampleReviewFacade"],
            swiftSettings: strict
        ),
        // Links all three modules, as an app would, and drives them through their facades.
        .testTarget(
            name: "MediatorExampleAppTests",
            dependencies: [
                "Componentry", "ExampleReader", "ExampleBookDetail", "ExampleReview",
                "ExampleReaderFacade", "ExampleBookDetailFacade", "ExampleReviewFacade",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "TallyEventTests", dependencies: ["TallyEvent", "SeededRandom"], swiftSettings: strict),
        .testTarget(name: "ComponentryListTests", dependencies: ["ComponentryList", "SeededRandom"], swiftSettings: strict),
        .testTarget(
            name: "TallyTrackerTests", dependencies: ["TallyTracker", "TrackerProbe", "SeededRandom", "Locking"], swiftSettings: strict
        ),
        // The child process the SDK's SIGKILL test kills.
        .executableTarget(name: "TrackerProbe", dependencies: ["TallyTracker"], path: "Tests/Fixtures/TrackerProbe", swiftSettings: strict),
    ]
)
