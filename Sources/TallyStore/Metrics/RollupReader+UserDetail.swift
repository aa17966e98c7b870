extension RollupReader {
    /// Per event name, how often the users who sent it in `buckets` sent it, and the users
    /// active in `buckets` by the app version of their last event, from `bucket_activity`.
    ///
    /// Versions: buckets are read latest first, and each user counts for the version of the
    /// first entry met, their last event (within a bucket, the stored entry is already the
    /// last, ties broken by version text). Names: each name's entries, gathered from every
    /// bucket, are summed per user in one array indexed by user number, reused from name to
    /// name, for the users who sent the name and the most any one sent.
    func userDetail(in buckets: Range<Int64>) throws -> (perUser: [String: PerUserStats], versions: [String: Int]) {
        var versionUsers: [Int64: Int] = [:]
        var assigned = DenseFlags()
        var entries: [Int64: (users: [UInt32], counts: [Int64])] = [:]
        var largestUser: UInt32 = 0
        let rows = try bucketRows(
            sql: """
                SELECT names, versions FROM bucket_activity WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3
                ORDER BY bucket DESC
                """,
            in: buckets)
        while try rows.step() {
            try rows.withBlob(at: 0) { names in
                try BucketActivity.forEachSection(in: names) { name, section in
                    try BucketActivity.forEachEntry(in: section) { user, count in
                        entries[name, default: ([], [])].users.append(user)
                        entries[name, default: ([], [])].counts.append(count)
                        largestUser = max(largestUser, user)
                    }
                }
            }
            try rows.withBlob(at: 1) { versions in
                try BucketActivity.forEachSection(in: versions) { version, section in
                    var newUsers = 0
                    try BucketActivity.forEachEntry(in: section) { user, _ in
                        if assigned.insert(user) { newUsers += 1 }
                    }
                    if newUsers > 0 { versionUsers[version, default: 0] += newUsers }
                }
            }
        }

        var perUser: [String: PerUserStats] = [:]
        var sums = [Int64](repeating: 0, count: entries.isEmpty ? 0 : Int(largestUser) + 1)
        for (name, list) in entries {
            var events: Int64 = 0, users = 0, maximum: Int64 = 0
            for (user, count) in zip(list.users, list.counts) {
                let index = Int(user)
                if sums[index] == 0 { users += 1 }
                sums[index] += count
                events += count
                maximum = max(maximum, sums[index])
            }
            for user in list.users { sums[Int(user)] = 0 }
            perUser[try label(name)] = PerUserStats(average: Double(events) / Double(users), maximum: Int(maximum))
        }
        var versions: [String: Int] = [:]
        for (version, users) in versionUsers { versions[try label(version), default: 0] += users }
        return (perUser, versions)
    }
}

/// A growable bitmap of user numbers, for marking users once in a hot loop: cheaper than a
/// `Set<UInt32>` or a ``UserSet`` insertion when users arrive in no order.
struct DenseFlags {
    private var words: [UInt64] = []

    /// Marks `user`; returns whether it was unmarked.
    mutating func insert(_ user: UInt32) -> Bool {
        let word = Int(user >> 6), bit: UInt64 = 1 << (user & 63)
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        return true
    }
}
