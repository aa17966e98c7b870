import Foundation
import TallyEvent
import TallyServer
import TallyStore
import TallyStoreTesting
import Testing

/// The alert loop on a shared database: any number of evaluators, one record each.
@Suite struct AlertEvaluatorTests {
    static let noon = try! Date("2026-03-02T12:00:00Z", strategy: Date.ISO8601FormatStyle())

    static func rule(_ name: String = "many taps", condition: AlertCondition = .above(-1)) throws -> AlertRule {
        try AlertRule(name: name, metric: .event("tap"), condition: condition, webhook: "http://127.0.0.1:9/hook", secret: "s3cret")
    }

    /// Two stores on one database, as two collectors, each evaluating every hour of a day
    /// many times at once: each rule and hour is recorded once, with one delivery.
    @Test(arguments: TestDatabase.all)
    func twoEvaluatorsRecordEachEvaluationOnce(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        defer { database.removeDatabase(url) }
        // On PostgreSQL two stores, as two collectors; a SQLite file has one collector.
        let one = try await EventStore(database: url)
        let two = database == .postgres ? try await EventStore(database: url) : one
        let app = try await one.apps.create(name: "Shared", timeZone: "Asia/Kathmandu").app
        try await one.events.insert(
            [
                Event(
                    id: UUID(), name: "tap", timestamp: try Date("2026-03-02T06:00:00Z", strategy: Date.ISO8601FormatStyle()), userID: "u",
                    sessionID: "s", appVersion: "1.0", platform: "iOS")
            ], app: app.id)
        try await one.alerts.save(try Self.rule(), app: app.id)
        try await one.alerts.save(try Self.rule("quiet", condition: .below(-1)), app: app.id)
        let evaluators = [AlertEvaluator(store: one), AlertEvaluator(store: two)]
        let hours = (0..<24).map { Self.noon.addingTimeInterval(Double($0) * 3_600 + 60) }
        let recorded = await withTaskGroup(of: [AlertEvaluation].self) { group in
            for round in 0..<4 {
                for evaluator in evaluators {
                    group.addTask {
                        var all: [AlertEvaluation] = []
                        for hour in hours { all += await evaluator.evaluate(at: hour.addingTimeInterval(Double(round))) }
                        return all
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(recorded.count == 48)
        #expect(Set(recorded.map { "\($0.rule) \($0.at)" }).count == 48)
        #expect(recorded.filter(\.fired).count == 24)
        let deliveries = try await one.alerts.deliveries(app: app.id, limit: 100)
        #expect(deliveries.count == 24 && deliveries.allSatisfy { $0.rule == "many taps" && $0.state == .pending })
        #expect(try await two.alerts.evaluations(app: app.id, firedOnly: true, limit: 100).count == 24)
    }
}
