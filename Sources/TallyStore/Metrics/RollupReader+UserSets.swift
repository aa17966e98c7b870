extension RollupReader {
    /// The users with an event in `buckets`.
    ///
    /// The union of the `active` sets of `day_users` for the whole UTC days inside `buckets`,
    /// and of `bucket_users` for the buckets at its edges: a window of 30 local days reads about
    /// 29 day rows and at most 190 bucket rows, whatever the number of users.
    func activeUsers(in buckets: Range<Int64>) throws -> UserSet {
        try users(column: "active", in: buckets)
    }

    /// The users whose first event ever is in `buckets`, from the `first` sets, read as
    /// ``activeUsers(in:)`` reads the `active` ones.
    func firstSeenUsers(in buckets: Range<Int64>) throws -> UserSet {
        try users(column: "first", in: buckets)
    }

    private func users(column: String, in buckets: Range<Int64>) throws -> UserSet {
        var users: [UserSet] = []
        guard !buckets.isEmpty else { return UserSet() }
        let firstWholeDay = -Bucket.floorDivide(-buckets.lowerBound, Bucket.perDay)
        let endWholeDay = Bucket.floorDivide(buckets.upperBound, Bucket.perDay)
        if firstWholeDay < endWholeDay {
            try addUsers(
                sql: "SELECT \(column) FROM day_users WHERE app_id = ?1 AND day >= ?2 AND day < ?3",
                in: firstWholeDay..<endWholeDay, to: &users)
            try addUsers(inBuckets: buckets.lowerBound..<firstWholeDay * Bucket.perDay, column: column, to: &users)
            try addUsers(inBuckets: endWholeDay * Bucket.perDay..<buckets.upperBound, column: column, to: &users)
        } else {
            try addUsers(inBuckets: buckets, column: column, to: &users)
        }
        return UserSet.union(users)
    }

    private func addUsers(inBuckets buckets: Range<Int64>, column: String, to users: inout [UserSet]) throws {
        guard !buckets.isEmpty else { return }
        try addUsers(
            sql: "SELECT \(column) FROM bucket_users WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3",
            in: buckets, to: &users)
    }

    /// Appends the user set in column 0 of each row `sql` selects over `range`.
    private func addUsers(sql: String, in range: Range<Int64>, to users: inout [UserSet]) throws {
        let rows = try bucketRows(sql: sql, in: range)
        while try rows.step() {
            users.append(try rows.withBlob(at: 0) { try UserSet(serialized: $0) })
        }
    }
}
