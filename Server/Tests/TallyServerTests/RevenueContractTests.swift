import Foundation
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

@Suite("GET /v1/revenue contract")
struct RevenueContractTests {
    /// Purchases sent through the ingest API come back as the documented JSON: amounts as
    /// exact decimal strings per currency, paying users and first-time payers per day.
    @Test(arguments: TestDatabase.all) func revenueHasTheContractKeysAndValues(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            let yesterday = now.addingTimeInterval(-86_400)
            func purchase(_ user: String, _ revenue: Any, _ currency: String, at time: Date) -> [String: Any] {
                Batch.event(name: "purchase", at: time, user: user, ["properties": ["revenue": revenue, "currency": currency]])
            }
            let events = [
                purchase("a", 9.99, "EUR", at: yesterday),
                purchase("a", "10.01", "eur", at: now),
                purchase("b", 5, "USD", at: now),
                purchase("c", -2, "USD", at: now),
                purchase("d", "lots", "USD", at: now),
                Batch.event(name: "bill_created", at: now, user: "e"),
            ]
            _ = try await server.ingest(Batch.body(events), key: app.ingestKey)
            let (from, to) = (utcDay(yesterday), utcDay(now))
            let response = try await server.metrics("/v1/revenue?from=\(from)&to=\(to)", token: app.readToken)
            #expect(response.status == 200)
            let json = response.json
            #expect(
                Set(json.keys) == [
                    "from", "to", "tz", "purchase_event", "dates", "paying_users", "first_time_payers", "daily_paying_users",
                    "daily_first_time_payers", "currencies",
                ])
            #expect(json["purchase_event"] as? String == "purchase")
            #expect(json["paying_users"] as? Int == 2)
            #expect(json["first_time_payers"] as? Int == 2)
            #expect(json["daily_paying_users"] as? [Int] == [1, 2])
            #expect(json["daily_first_time_payers"] as? [Int] == [1, 1])
            let currencies = try #require(json["currencies"] as? [String: [String: Any]])
            #expect(Set(currencies.keys) == ["EUR", "USD"])
            #expect(currencies["EUR"]?["revenue"] as? String == "20")
            #expect(currencies["EUR"]?["paying_users"] as? Int == 1)
            #expect(currencies["EUR"]?["average_revenue_per_paying_user"] as? String == "20")
            #expect(currencies["EUR"]?["daily_revenue"] as? [String] == ["9.99", "10.01"])
            #expect(currencies["USD"]?["revenue"] as? String == "3")
            #expect(currencies["USD"]?["daily_revenue"] as? [String] == ["0", "3"])
            let today = try await server.metrics("/v1/revenue?from=\(to)&to=\(to)", token: app.readToken)
            // "a" paid yesterday: today's only first-time payer is "b".
            #expect(today.json["first_time_payers"] as? Int == 1)
            let filtered = try await server.metrics("/v1/revenue?from=\(from)&to=\(to)&filters=platform==Android", token: app.readToken)
            #expect(filtered.json["paying_users"] as? Int == 0)
            #expect((filtered.json["currencies"] as? [String: Any])?.isEmpty == true)
        }
    }

    /// Hostile queries get a 400 or 401 with a message, and nothing else changes.
    @Test(arguments: TestDatabase.all) func badRevenueRequestsGetClearErrors(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let cases: [(String, String?, Int)] = [
                ("/v1/revenue?from=2026-11-01&to=2026-11-22", nil, 401),
                ("/v1/revenue?from=2026-11-01&to=2026-11-22", "rt_wrong", 401),
                ("/v1/revenue?from=2026-11-01", app.readToken, 400),
                ("/v1/revenue?from=2026-11-22&to=2026-11-01", app.readToken, 400),
                ("/v1/revenue?from=0000-01-01&to=9999-12-31", app.readToken, 400),
                ("/v1/revenue?from=2026-02-30&to=2026-03-01", app.readToken, 400),
                ("/v1/revenue?from=2026-11-01&to=2026-11-22&tz=Mars/Olympus", app.readToken, 400),
                ("/v1/revenue?from=2026-11-01&to=2026-11-22&filters=nothing==1", app.readToken, 400),
                ("/v1/revenue?from=2026-11-01&to=2026-11-22&filters=%FF", app.readToken, 400),
                ("/v1/revenue?from=2026-11-01&to=2026-11-22&debug=maybe", app.readToken, 400),
                ("/v1/revenue?from=%00&to=2026-11-22", app.readToken, 400),
            ]
            for (path, token, status) in cases {
                let response = try await server.metrics(path, token: token)
                #expect(response.status == status, "\(path)")
                #expect((response.json["error"] as? String)?.isEmpty == false, "\(path)")
            }
            let fine = try await server.metrics("/v1/revenue?from=2026-11-01&to=2026-11-22&debug=true", token: app.readToken)
            #expect(fine.status == 200)
        }
    }
}
