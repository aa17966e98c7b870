extension RollupReader {
    /// The revenue of the days that start at `dayStarts` (milliseconds; the last element ends
    /// the last day), under the reader's segment (see ``RevenueMetrics``).
    func revenue(dayStarts: [Int64]) throws -> (
        payingUsers: Int, firstTimePayers: Int, daily: [(payingUsers: Int, firstTimePayers: Int)], currencies: [String: CurrencyTotals]
    ) {
        let days = dayStarts.count - 1
        let purchases = try rows.purchases(in: dayStarts[0]..<dayStarts[days])
        // Each user's first positive purchase of the range, whatever the filter: a first-time
        // payer's first ever unless they paid before.
        var firstInRange: [UInt32: Int64] = [:]
        for row in purchases.rows where row.micros > 0 && firstInRange[row.user] == nil { firstInRange[row.user] = row.timestamp }
        var payers: Set<UInt32> = []
        var dailyPayers = [Set<UInt32>](repeating: [], count: days)
        var currencies: [String: CurrencyTotals] = [:]
        var day = 0
        for row in purchases.rows {
            while row.timestamp >= dayStarts[day + 1] { day += 1 }
            if let segment, !segment.matches(key: row.key) || !segment.allows(user: row.user) { continue }
            var totals = currencies[row.currency] ?? CurrencyTotals(days: days)
            totals.revenue += Int128(row.micros)
            totals.dailyRevenue[day] += Int128(row.micros)
            if row.micros > 0 {
                totals.payers.insert(row.user)
                payers.insert(row.user)
                dailyPayers[day].insert(row.user)
            }
            currencies[row.currency] = totals
        }
        func isFirstTime(_ user: UInt32, in window: Range<Int64>) -> Bool {
            guard !purchases.earlierPayers.contains(user), let first = firstInRange[user] else { return false }
            return window.contains(first)
        }
        let range = dayStarts[0]..<dayStarts[days]
        let daily = dailyPayers.indices.map { index in
            let window = dayStarts[index]..<dayStarts[index + 1]
            return (payingUsers: dailyPayers[index].count, firstTimePayers: dailyPayers[index].count(where: { isFirstTime($0, in: window) }))
        }
        return (payers.count, payers.count(where: { isFirstTime($0, in: range) }), daily, currencies)
    }

    /// One currency's sums over a range.
    struct CurrencyTotals {
        var revenue: Int128 = 0
        var dailyRevenue: [Int128]
        var payers: Set<UInt32> = []

        init(days: Int) {
            dailyRevenue = Array(repeating: 0, count: days)
        }
    }
}
