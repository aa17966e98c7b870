import TallyEvent

extension MetricStore {
    /// The revenue of every day of the scope, and of the whole range: paying users,
    /// first-time payers, and per currency the revenue and the average revenue per paying user
    /// (see ``RevenueMetrics`` for the exact definitions).
    ///
    /// Reads only the `purchase` rollup, which the group commit fills from the app's purchase
    /// events (``App/purchaseEvent``), never raw events. Reflects every batch committed
    /// before the call. Under a filter, only matching purchases count.
    public func revenue(_ scope: ReadScope) async throws -> RevenueMetrics {
        let days = scope.days
        let purchaseEvent = try await backend.app(id: scope.app)?.purchaseEvent ?? App.defaultPurchaseEvent
        return try await read(scope) { calendar in
            let starts = try Self.dayStarts(days, calendar)
            return RollupNeeds(purchases: starts.first!..<starts.last!)
        } body: { reader, calendar in
            let revenue = try reader.revenue(dayStarts: try Self.dayStarts(days, calendar))
            return RevenueMetrics(
                from: days.lowerBound.description, to: days.upperBound.description, timeZone: calendar.identifier,
                purchaseEvent: purchaseEvent, dates: days.map(\.description), payingUsers: revenue.payingUsers,
                firstTimePayers: revenue.firstTimePayers, dailyPayingUsers: revenue.daily.map(\.payingUsers),
                dailyFirstTimePayers: revenue.daily.map(\.firstTimePayers),
                currencies: revenue.currencies.mapValues { totals in
                    RevenueMetrics.Currency(
                        revenue: RevenueMetrics.decimal(micros: totals.revenue), payingUsers: totals.payers.count,
                        averageRevenuePerPayingUser: totals.payers.isEmpty
                            ? nil : RevenueMetrics.quotient(micros: totals.revenue, by: totals.payers.count),
                        dailyRevenue: totals.dailyRevenue.map(RevenueMetrics.decimal(micros:)))
                })
        }
    }

    /// The first millisecond of each day of `days` and of the day after.
    private static func dayStarts(_ days: ClosedRange<CalendarDay>, _ calendar: LocalCalendar) throws -> [Int64] {
        try (days.lowerBound...days.upperBound.advanced(by: 1)).map { try calendar.bucket(startOf: $0) * Bucket.milliseconds }
    }
}
