import TallyEvent

extension EventStore {
    /// The revenue of every day from `from` through `to`, and of the whole range: paying users,
    /// first-time payers, and per currency the revenue and the average revenue per paying user
    /// (see ``RevenueMetrics`` for the exact definitions).
    ///
    /// Reads only the `purchase` rollup, which the group commit fills from the app's purchase
    /// events (``App/purchaseEvent``), never raw events. Reflects every batch committed
    /// before the call.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - from: The first day, as `YYYY-MM-DD`.
    ///   - to: The last day, included, as `YYYY-MM-DD`; the range spans at most ``maximumRangeDays`` days.
    ///   - timeZone: The IANA identifier whose days these are; `nil` means the app's time zone.
    ///   - filter: The segment to count (see ``SegmentFilter``); empty counts every purchase.
    /// - Throws: The errors of ``metricsRange(app:from:to:timeZone:filter:)``.
    public func revenue(
        app: AppID, from: String, to: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> RevenueMetrics {
        let days = try Self.days(from: from, to: to)
        let purchaseEvent = try await backend.app(id: app)?.purchaseEvent ?? App.defaultPurchaseEvent
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
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
