extension RollupReader {
    /// The users with an event in `buckets`.
    ///
    /// The union of the `active` sets of `day_users` for the whole UTC days inside `buckets`,
    /// and of `bucket_users` for the buckets at its edges: a window of 30 local days reads about
    /// 29 day rows and at most 190 bucket rows, whatever the number of users.
    func activeUsers(in buckets: Range<Int64>) throws -> UserSet {
        if let segment { return try segmentUsers(in: buckets, segment) }
        return try users(column: .active, in: buckets)
    }

    /// The users whose first event ever is in `buckets`, from the `first` sets, read as
    /// ``activeUsers(in:)`` reads the `active` ones. With a ``segment``, those of them who
    /// also sent a matching event in `buckets`.
    func firstSeenUsers(in buckets: Range<Int64>) throws -> UserSet {
        let first = try users(column: .first, in: buckets)
        guard segment != nil else { return first }
        return first.intersection(try activeUsers(in: buckets))
    }

    private func users(column: UserSetColumn, in buckets: Range<Int64>) throws -> UserSet {
        var users: [UserSet] = []
        for (period, range) in Self.userSetRows(covering: buckets) {
            try rows.forEachUserSet(column, of: period, in: range) { users.append(try UserSet(serialized: $0)) }
        }
        return UserSet.union(users)
    }

    /// The rows whose user sets cover `buckets` exactly: `day_users` for the whole UTC days
    /// inside, `bucket_users` for the buckets at the edges. Empty ranges are left out.
    static func userSetRows(covering buckets: Range<Int64>) -> [(period: UserSetPeriod, range: Range<Int64>)] {
        guard !buckets.isEmpty else { return [] }
        let firstWholeDay = -Bucket.floorDivide(-buckets.lowerBound, Bucket.perDay)
        let endWholeDay = Bucket.floorDivide(buckets.upperBound, Bucket.perDay)
        guard firstWholeDay < endWholeDay else { return [(.bucket, buckets)] }
        return [
            (.day, firstWholeDay..<endWholeDay),
            (.bucket, buckets.lowerBound..<firstWholeDay * Bucket.perDay),
            (.bucket, endWholeDay * Bucket.perDay..<buckets.upperBound),
        ].filter { !$0.range.isEmpty }
    }
}
