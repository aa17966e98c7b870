import TallyEvent
import Testing

@testable import TallyStore

@Suite struct PurchaseTests {
    /// Every hostile amount is read exactly or refused as the table says, never rounded.
    @Test func amountsAreReadExactlyOrRefused() {
        for (value, micros) in RevenueOracleTests.amounts {
            let properties: [String: PropertyValue] = value.map { ["revenue": $0, "currency": "EUR"] } ?? ["currency": "EUR"]
            switch Purchase.read(properties) {
            case .success(let purchase): #expect(purchase.micros == micros && purchase.currency == "EUR", "\(String(describing: value))")
            case .failure(let problem):
                #expect(micros == nil, "\(String(describing: value))")
                #expect(problem == (value == nil || value == .null ? .missingRevenue : .invalidRevenue))
            }
        }
    }

    /// Currencies are three ASCII letters, uppercased.
    @Test func currenciesAreThreeLettersUppercased() {
        for (value, code) in RevenueOracleTests.currencies {
            var properties: [String: PropertyValue] = ["revenue": 1]
            properties["currency"] = value
            switch Purchase.read(properties) {
            case .success(let purchase): #expect(purchase.currency == code)
            case .failure(let problem): #expect(code == nil && problem == .invalidCurrency)
            }
        }
    }

    /// Sums and averages are written as exact decimals: the largest amounts summed many times
    /// do not overflow, and the average rounds halves away from zero.
    @Test func decimalsAreExact() {
        #expect(RevenueMetrics.decimal(micros: 0) == "0")
        #expect(RevenueMetrics.decimal(micros: -1) == "-0.000001")
        #expect(RevenueMetrics.decimal(micros: 12_500_000) == "12.5")
        let most = Int128(Purchase.maximumUnits * Purchase.scale) * 1_000_000
        #expect(RevenueMetrics.decimal(micros: most) == "1000000000000000000")
        #expect(RevenueMetrics.quotient(micros: 5, by: 2) == "0.000003")
        #expect(RevenueMetrics.quotient(micros: -5, by: 2) == "-0.000003")
        #expect(RevenueMetrics.quotient(micros: 10_000_000, by: 3) == "3.333333")
        #expect(RevenueMetrics.quotient(micros: 20_000_000, by: 3) == "6.666667")
    }
}
