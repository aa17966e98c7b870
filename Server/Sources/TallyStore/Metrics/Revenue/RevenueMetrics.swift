/// Revenue over a range of local days, as returned by
/// ``MetricStore/revenue(_:)``: from the app's purchase events (see
/// ``Purchase``), exact, amounts summed per currency and never converted.
///
/// - A **paying user** has a purchase of a positive amount in the period (refunds and zero
///   amounts make nobody paying).
/// - A **first-time payer** of a period is a paying user of it whose first positive purchase
///   ever, in any currency and whatever the filter, is in the period.
/// - **Revenue** per currency is the sum of every purchase's amount, refunds included.
/// - The **average revenue per paying user** of a currency is its revenue divided by the
///   users with a positive purchase in it: given as both numbers, and as their quotient
///   rounded to 6 decimal places, halves away from zero.
///
/// With a filter, only matching purchase events count, and users through them. Amounts are
/// decimal strings (`"1234.5"`, `"-3"`): exact, never a binary floating-point number. Days are
/// defined as in ``DayMetrics``. Encodes to JSON with snake-case keys.
public struct RevenueMetrics: Hashable, Sendable, Codable {
    /// One currency's figures.
    public struct Currency: Hashable, Sendable, Codable {
        /// The sum of the range's amounts, as a decimal string.
        public var revenue: String
        /// Users with a positive purchase in this currency in the range.
        public var payingUsers: Int
        /// ``revenue`` divided by ``payingUsers``, rounded to 6 decimal places; `nil` when no
        /// user paid in it.
        public var averageRevenuePerPayingUser: String?
        /// The revenue of each day, as decimal strings.
        public var dailyRevenue: [String]

        enum CodingKeys: String, CodingKey {
            case revenue
            case payingUsers = "paying_users"
            case averageRevenuePerPayingUser = "average_revenue_per_paying_user"
            case dailyRevenue = "daily_revenue"
        }
    }

    /// The first day, as `YYYY-MM-DD`.
    public var from: String
    /// The last day (included), as `YYYY-MM-DD`.
    public var to: String
    /// The IANA identifier of the time zone whose days these are.
    public var timeZone: String
    /// The app's purchase event name (see ``App/purchaseEvent``).
    public var purchaseEvent: String
    /// Every day from ``from`` through ``to``, as `YYYY-MM-DD`.
    public var dates: [String]
    /// Paying users in the whole range, in any currency.
    public var payingUsers: Int
    /// First-time payers in the whole range.
    public var firstTimePayers: Int
    /// Paying users per day.
    public var dailyPayingUsers: [Int]
    /// First-time payers per day.
    public var dailyFirstTimePayers: [Int]
    /// Per currency code, the currencies with a purchase in the range.
    public var currencies: [String: Currency]

    enum CodingKeys: String, CodingKey {
        case from, to, dates, currencies
        case timeZone = "tz"
        case purchaseEvent = "purchase_event"
        case payingUsers = "paying_users"
        case firstTimePayers = "first_time_payers"
        case dailyPayingUsers = "daily_paying_users"
        case dailyFirstTimePayers = "daily_first_time_payers"
    }
}

extension RevenueMetrics {
    /// `micros` millionths as a decimal string: no trailing zeros in the fraction, no point
    /// without one (`"12.5"`, `"-3"`, `"0.000001"`).
    public static func decimal(micros: Int128) -> String {
        let scale = Int128(Purchase.scale)
        let magnitude = micros.magnitude
        let units = magnitude / UInt128(scale)
        var fraction = String(magnitude % UInt128(scale))
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return (micros < 0 ? "-" : "") + String(units) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// `numerator / denominator` millionths as a decimal string, rounded to a millionth,
    /// halves away from zero; `denominator` is positive.
    static func quotient(micros numerator: Int128, by denominator: Int) -> String {
        let divisor = Int128(denominator)
        var quotient = numerator / divisor
        let remainder = numerator % divisor
        if remainder.magnitude * 2 >= divisor.magnitude { quotient += numerator < 0 ? -1 : 1 }
        return decimal(micros: quotient)
    }
}
