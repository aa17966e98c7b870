extension HealthCounts.Key: Comparable {
    /// By app, bucket, outcome and reason: the order in which every transaction writes its
    /// counts (see ``PostgresGroupWriter``).
    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.app.rawValue, lhs.bucket, lhs.outcome.rawValue, lhs.reason) < (rhs.app.rawValue, rhs.bucket, rhs.outcome.rawValue, rhs.reason)
    }
}
