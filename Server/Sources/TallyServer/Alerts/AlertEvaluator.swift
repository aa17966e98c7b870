public import Foundation
public import Logging
public import TallyStore

/// Evaluates every app's alert rules at the start of each local hour (``AlertSchedule``) and
/// records each evaluation once, queueing the webhook POST of those that fire
/// (``AlertStore/record(_:of:app:now:)``).
///
/// Any number of collectors sharing a database may run one: each computes the values, and
/// the database keeps the first record of each app, rule and time. An evaluator that wakes
/// late (a restart, a suspended machine) evaluates the latest time that passed.
///
/// ```swift
/// let evaluator = AlertEvaluator(store: store, fileRules: { app in configuration.alerts(of: app) })
/// try await evaluator.run()
/// ```
public struct AlertEvaluator: Sendable {
    /// The store evaluated and recorded in.
    public let store: EventStore
    /// The clock.
    public let clock: any AlertClock
    /// The rules of an app's dashboard file; a stored rule of the same name is left out.
    public let fileRules: @Sendable (App) -> [AlertRule]
    /// Where failures to evaluate go.
    public let logger: Logger

    /// The longest sleep between two passes, so new apps are seen.
    static let longestSleep: TimeInterval = 300

    /// Creates an evaluator.
    public init(
        store: EventStore, clock: any AlertClock = SystemAlertClock(), fileRules: @escaping @Sendable (App) -> [AlertRule] = { _ in [] },
        logger: Logger = Logger(label: "tally.alerts")
    ) {
        self.store = store
        self.clock = clock
        self.fileRules = fileRules
        self.logger = logger
    }

    /// Evaluates until the task is cancelled: a pass at once, then one at each evaluation time.
    public func run() async throws {
        while true {
            let now = clock.now
            await evaluate(at: now)
            try? await store.alerts.prune(now: now)
            var wake = now.addingTimeInterval(Self.longestSleep)
            for app in (try? await store.apps.all()) ?? [] {
                guard let timeZone = TimeZone(identifier: app.timeZone) else { continue }
                wake = min(wake, AlertSchedule(timeZone: timeZone).next(after: now))
            }
            try await clock.sleep(until: wake)
        }
    }

    /// One pass: for each app, evaluates each rule at the app's latest evaluation time at or
    /// before `date`, and records it unless recorded already. Returns the evaluations this
    /// call recorded.
    @discardableResult
    public func evaluate(at date: Date) async -> [AlertEvaluation] {
        var recorded: [AlertEvaluation] = []
        let apps: [App]
        do {
            apps = try await store.apps.all()
        } catch is CancellationError {
            return []  // shutting down
        } catch {
            logger.error("alerts: cannot list the apps: \(error)")
            return []
        }
        for app in apps {
            guard let timeZone = TimeZone(identifier: app.timeZone) else { continue }
            let schedule = AlertSchedule(timeZone: timeZone)
            let slot = schedule.slot(at: schedule.latest(atOrBefore: date))
            for rule in await rules(of: app) {
                do {
                    guard let evaluation = try await store.alerts.evaluate(rule, app: app.id, at: slot) else { continue }
                    if try await store.alerts.record(evaluation, of: rule, app: app, now: clock.now) { recorded.append(evaluation) }
                } catch is CancellationError {
                    return recorded
                } catch {
                    logger.error("alerts: app \(app.id.rawValue), rule \"\(rule.name)\": \(error)")
                }
            }
        }
        return recorded
    }

    /// The app's file rules, then its stored rules of other names.
    private func rules(of app: App) async -> [AlertRule] {
        let file = fileRules(app)
        let names = Set(file.map(\.name))
        let stored = (try? await store.alerts.rules(app: app.id)) ?? []
        return file + stored.filter { !names.contains($0.name) }
    }
}
