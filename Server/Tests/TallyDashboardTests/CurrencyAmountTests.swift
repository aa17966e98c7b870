import Testing

@testable import TallyDashboard

@Suite struct CurrencyAmountTests {
    /// Amounts keep every decimal the store gave, at least two, with grouped thousands and
    /// a true minus sign: never rounded.
    @Test func amountsAreWrittenExactlyWithTheirCode() {
        let cases = [
            ("0", "EUR 0.00"), ("12.5", "EUR 12.50"), ("1234.5", "EUR 1,234.50"), ("-3", "EUR \u{2212}3.00"),
            ("1234567.891", "EUR 1,234,567.891"), ("0.000001", "EUR 0.000001"), ("100", "EUR 100.00"), ("999999", "EUR 999,999.00"),
        ]
        for (decimal, written) in cases {
            #expect(CurrencyAmount(currency: "EUR", decimal: decimal).description == written)
        }
    }
}
