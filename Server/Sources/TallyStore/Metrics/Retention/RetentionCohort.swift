/// The users first seen in one period, and how many of them came back in each later one.
public struct RetentionCohort: Hashable, Sendable, Codable {
    /// The first day of the period, as `YYYY-MM-DD`.
    public var start: String
    /// The users whose first event ever is in the period.
    public var size: Int
    /// `returning[k - 1]`: the users of the cohort with an event in period `k` after the
    /// cohort's, for every later period of the matrix.
    public var returning: [Int]
    /// `returning` as shares of ``size``, from 0 to 1; `nil` for an empty cohort.
    public var shares: [Double]?

    /// A cohort of `size` users, `returning` of them in each later period.
    public init(start: String, size: Int, returning: [Int]) {
        self.start = start
        self.size = size
        self.returning = returning
        shares = size == 0 ? nil : returning.map { Double($0) / Double(size) }
    }
}
