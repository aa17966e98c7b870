extension RollupReader {
    /// The users with an event in `buckets`.
    ///
    /// The union of the `active` sets of `day_users` for the whole UTC days inside `buckets`,
    /// and of `bucket_users` for the buckets at its edges: a window of 30 local days reads about
    /// 29 day rows and at most 190 bucket rows, whatever the number of users.
    func activeUsers(in buckets: Range<Int64>) throws -> UserSet {
        try users(column: .active, in: buckets)
    }

    /// The users whose first event ever is in `buckets`, from the `first` sets, read as
    /// ``activeUsers(in:)`` reads the `active` ones.
    func firstSeenUsers(in buckets: Range<Int64>) throws -> UserSet {
        try users(column: .first, in: buckets)
    }

    private func users(column: UserSetColumn, in buckets: Range<Int64>) throws -> UserSet {
        var users: [UserSet] = []
        guard !buckets.isEmpty else { return UserSet() }
        func add(_ period: UserSetPeriod, _ range: Range<Int64>) throws {
            guard !range.isEmpty else { return }
            try rows.forEachUserSet(column, of: period, in: range) { users.append(try UserSet(serialized: $0)) }
        }
        let firstWholeDay = -Bucket.floorDivide(-buckets.lowerBound, Bucket.perDay)
        let endWholeDay = Bucket.floorDivide(buckets.upperBound, Bucket.perDay)
        if firstWholeDay < endWholeDay {
            try add(.day, firstWholeDay..<endWholeDay)
            try add(.bucket, buckets.lowerBound..<firstWholeDay * Bucket.perDay)
            try add(.bucket, endWholeDay * Bucket.perDay..<buckets.upperBound)
        } else {
            try add(.bucket, buckets)
        }
        return UserSet.union(users)
    }
}
