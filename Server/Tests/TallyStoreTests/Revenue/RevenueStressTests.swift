import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Purchases committed by many concurrent writers while revenue is read: every read sees
/// whole commits (paying users and revenue never go back), and the last read is exact.
@Suite struct RevenueStressTests {
    @Test(arguments: TestDatabase.all)
    func concurrentPurchasesAndReadsStayExact(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Stress").app.id
        let day = instant("2026-03-01T00:00:00Z")
        // 8 writers, 25 batches of 20 purchases each, of 300 users, in cents.
        let batches: [[Event]] = (0..<8).flatMap { writer in
            var random = SplitMix64(seed: UInt64(writer) + 1)
            return (0..<25).map { _ in
                (0..<20).map { _ in
                    event(
                        name: "purchase", at: day.addingTimeInterval(Double.random(in: 0..<86_000, using: &random)),
                        user: "u\(Int.random(in: 0..<300, using: &random))",
                        properties: [
                            "revenue": .string("\(Int.random(in: 1...9_999, using: &random)).\(Int.random(in: 10...99, using: &random))"),
                            "currency": "EUR",
                        ])
                }
            }
        }
        let reads = try await withThrowingTaskGroup(of: [RevenueMetrics].self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for batch in batches[writer * 25..<(writer + 1) * 25] { try await store.events.insert(batch, app: app) }
                    return []
                }
            }
            group.addTask {
                var reads: [RevenueMetrics] = []
                for _ in 0..<40 {
                    reads.append(
                        try await store.metrics.revenue(
                            ReadScope(app: app, days: CalendarDay("2026-03-01")!...CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
                    )
                }
                return reads
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        func cents(_ revenue: RevenueMetrics) -> Decimal { Decimal(string: revenue.currencies["EUR"]?.revenue ?? "0")! }
        for (earlier, later) in zip(reads, reads.dropFirst()) {
            #expect(earlier.payingUsers <= later.payingUsers)
            #expect(cents(earlier) <= cents(later))
        }
        let final = try await store.metrics.revenue(
            ReadScope(app: app, days: CalendarDay("2026-03-01")!...CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
        let all = batches.joined()
        let total = all.map { event -> Decimal in
            guard case .string(let text)? = event.properties["revenue"] else { return 0 }
            return Decimal(string: text)!
        }.reduce(0, +)
        #expect(cents(final) == total)
        #expect(final.payingUsers == Set(all.map(\.userID)).count)
        #expect(final.firstTimePayers == final.payingUsers)
    }
}
