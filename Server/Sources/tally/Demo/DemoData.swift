import Foundation
import Locking
import SeededRandom
import TallyDashboard
import TallyStore
import TallyTracker

/// The `--demo` data: 60 days of a bookkeeping app's users, sent through the real SDK
/// (`Tracker`) and HTTP path to the running collector.
///
/// Each simulated device gets its own tracker and storage folder; a settable clock makes
/// the tracker stamp events at simulated times, then reads the real time again before the
/// upload, as an app that was offline and comes back would. The run is deterministic: the
/// same seed gives the same users and events.
enum DemoData {
    static let days = 60
    static let defaultUsers = 240
    static let timeZone = "Asia/Shanghai"

    /// What the demo app's filters and funnels may segment by beside `app_version` and
    /// `platform`: `method`, an event property of `login`, and `plan`, a user property its
    /// users' `identify` events set.
    static let segmentProperties = SegmentProperties(event: ["method"], user: ["plan"])

    /// The dashboard user the demo creates.
    static let userName = "demo"

    /// Creates the dashboard user ``userName`` with a new password, makes it an owner of
    /// `app`, and returns how to sign in: the password, or, when the database has the user
    /// already (a second `--demo` on the same file), that its password is the one printed then.
    static func createUser(access: DashboardAccess, store: EventStore, owning app: AppID) async throws -> String {
        let password = DashboardAccess.generatePassword()
        let login: String
        do {
            try await access.createUser(name: userName, password: password)
            login = "password \(password)"
        } catch TallyStoreError.Code.userNameTaken {
            login = "password unchanged since it was created"
        }
        if let user = try await store.accounts.account(named: userName)?.user { try await store.members.setRole(.owner, of: user.id, in: app) }
        return login
    }

    /// Creates the demo app, sends its events, and returns the app and the report to print.
    static func fill(store: EventStore, server: URL, users: Int) async throws -> (app: AppID, report: String) {
        let created = try await store.apps.create(
            name: "Demo Bookkeeping", timeZone: timeZone, acceptedEventAge: Double(days + 2) * 86_400
        )
        // Segments: by the login method of an event, and by the plan a user's `identify` set.
        _ = try await store.apps.update(created.app.id, segmentProperties: segmentProperties)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        let startedAt = Date()
        let today = Calendar.shanghai.startOfDay(for: startedAt)
        let first = Calendar.shanghai.date(byAdding: .day, value: -(days - 1), to: today)!
        var random = SplitMix64(seed: 2026)
        var sent = 0
        var dropped = 0
        for user in 0..<users {
            let plan = DemoUser(number: user, firstDay: first, days: days, random: &random)
            for era in plan.eras {
                let clock = DemoClock()
                var configuration = Tracker.Configuration(
                    endpoint: server, appKey: created.ingestKey,
                    storageDirectory: folder.appendingPathComponent("device-\(user)")
                )
                configuration.appVersion = era.version
                configuration.platform = plan.platform
                configuration.maxEventAge = Double(days + 1) * 86_400
                // Uploads happen only in the flushes below, with the clock set to the real
                // time: `sent_at` must be "now" for the server's skew correction to keep the
                // simulated timestamps.
                configuration.batchSize = 1_000
                configuration.uploadInterval = 3600
                // The demo's events are its plan alone, and count as production's.
                configuration.tracksAppLifecycle = false
                configuration.isDebug = false
                configuration.now = { clock.now }
                let tracker = try Tracker(configuration: configuration)
                tracker.identify(plan.userID)
                // Today's plan runs into the evening; only what has already happened is sent.
                for chunk in era.events.filter({ $0.time <= startedAt }).chunks(of: 900) {
                    try Task.checkCancellation()  // the server is shutting down
                    for event in chunk {
                        clock.now = event.time
                        if event.name == "identify" {
                            // The SDK's identify with traits: it records the `identify` event
                            // whose properties the store keeps as the user's.
                            tracker.identify(plan.userID, properties: event.properties)
                        } else {
                            tracker.track(event.name, event.properties)
                        }
                    }
                    clock.now = Date()
                    let report = await tracker.flush()
                    sent += report.sent
                    dropped += report.droppedCount
                }
            }
        }
        let report = """
            demo app created and filled: \(sent) events from \(users) users over \(days) days (\(dropped) dropped)
            \(try KeysOutput(created).json)
            try: curl -H 'Authorization: Bearer \(created.readToken)' '\(server.absoluteString)/v1/metrics?date=\(today.shanghaiDay)'
            """
        return (created.app.id, report)
    }
}

/// A clock the demo sets to each simulated event's time.
private final class DemoClock: Sendable {
    private let current = Locked(Date())

    var now: Date {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

extension Calendar {
    static let shanghai: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: DemoData.timeZone)!
        return calendar
    }()
}

extension Date {
    /// The local day in the demo's time zone, as `YYYY-MM-DD`.
    var shanghaiDay: String {
        let parts = Calendar.shanghai.dateComponents([.year, .month, .day], from: self)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
