import TallyStore

/// The Revenue section's tiles and chart: paying users and first-time payers of the page's
/// range, then per currency its revenue and its average revenue per paying user.
enum RevenueTiles {
    /// The tiles of `revenue`, the currencies in code order.
    static func tiles(of revenue: RevenueMetrics) -> [Tile] {
        let days = revenue.dates.count
        let span = days == 1 ? "on the day" : "in \(days) days"
        var tiles = [
            Tile(id: "revenue:paying_users", label: "Paying users", value: String(revenue.payingUsers), detail: span, hasDetail: false),
            Tile(
                id: "revenue:first_time_payers", label: "First-time payers", value: String(revenue.firstTimePayers),
                detail: "first purchase ever \(span)", hasDetail: false),
        ]
        for (code, currency) in revenue.currencies.sorted(by: { $0.key < $1.key }) {
            let average = currency.averageRevenuePerPayingUser.map { "\(CurrencyAmount(currency: code, decimal: $0)) per paying user" }
            tiles.append(
                Tile(
                    id: "revenue:\(code)", label: "Revenue (\(code))", value: CurrencyAmount(currency: code, decimal: currency.revenue).description,
                    detail: average ?? "refunds only", hasDetail: false))
        }
        return tiles
    }

    /// The daily paying users of the charts' window, as a trend chart.
    static func chart(of trend: RevenueMetrics, annotations: [ChartAnnotation]) -> TrendChart {
        TrendChart(dates: trend.dates, values: trend.dailyPayingUsers, title: "Daily paying users", annotations: annotations)
    }
}
