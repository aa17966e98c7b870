/// An exact decimal amount in a currency, as the dashboard writes it: the code, then the
/// amount with its thousands grouped and at least two decimals (`EUR 1,234.50`,
/// `USD −3.00`), every decimal the store kept and no rounding.
struct CurrencyAmount: CustomStringConvertible {
    /// The ISO 4217 code.
    var currency: String
    /// The amount as the store writes it (``TallyStore/RevenueMetrics``): `-1234.5`.
    var decimal: String

    var description: String {
        let negative = decimal.hasPrefix("-")
        let digits = negative ? decimal.dropFirst() : decimal[...]
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var units = String(parts[0])
        var grouped = ""
        while units.count > 3 {
            grouped = "," + units.suffix(3) + grouped
            units.removeLast(3)
        }
        grouped = units + grouped
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        if fraction.count < 2 { fraction += String(repeating: "0", count: 2 - fraction.count) }
        return "\(currency) \(negative ? "\u{2212}" : "")\(grouped).\(fraction)"
    }
}
