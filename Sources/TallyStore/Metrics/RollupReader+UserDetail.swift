extension RollupReader {
    /// Per event name, how often the users who sent it in `buckets` sent it, and the users
    /// active in `buckets` by the app version of their last event, from `bucket_activity`.
    ///
    /// Versions: buckets are read latest first, and each user counts for the version of the
    /// first entry met, their last event (within a bucket, the stored entry is already the
    /// last, ties broken by version text).
    ///
    /// Names: each row's name sections are copied out as they are (about two bytes a user),
    /// then decoded name by name into one array indexed by user number that holds each user's
    /// events of the current name, stamped with the name so no reset is needed between names.
    /// Gathering decoded entries in arrays per name instead took twice as long (2.3 against
    /// 1.2 ms for a day of the 20,000-user fixture), and an array per name and user number
    /// would grow with names times users, not with the day's data.
    func userDetail(in buckets: Range<Int64>) throws -> (perUser: [String: PerUserStats], versions: [String: Int]) {
        var versionUsers: [Int64: Int] = [:]
        var assigned = DenseFlags()
        var sectionBytes: [UInt8] = []
        var sections: [(name: Int64, bytes: Range<Int>)] = []
        let rows = try bucketRows(
            sql: """
                SELECT names, versions FROM bucket_activity WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3
                ORDER BY bucket DESC
                """,
            in: buckets)
        while try rows.step() {
            try rows.withBlob(at: 0) { names in
                try BucketActivity.forEachSection(in: names) { name, entries in
                    sections.append((name, sectionBytes.count..<sectionBytes.count + entries.count))
                    sectionBytes.append(contentsOf: entries)
                }
            }
            try rows.withBlob(at: 1) { versions in
                try BucketActivity.forEachSection(in: versions) { version, entries in
                    var newUsers = 0
                    try BucketActivity.forEachEntry(in: entries) { user, _ in
                        if assigned.insert(user) { newUsers += 1 }
                    }
                    if newUsers > 0 { versionUsers[version, default: 0] += newUsers }
                }
            }
        }

        var perUser: [String: PerUserStats] = [:]
        // Per user number: the stamp of the name last counted (high 32 bits) and the user's
        // events of that name (low 32 bits, saturating: no user sends 2^32 events a day).
        var totals: [UInt64] = []
        sections.sort { $0.name < $1.name }
        var start = 0
        try sectionBytes.withUnsafeBytes { bytes in
            while start < sections.count {
                let name = sections[start].name
                let stamp = UInt64(perUser.count + 1) << 32
                var events: Int64 = 0, users = 0, maximum: UInt64 = 0
                var end = start
                while end < sections.count, sections[end].name == name {
                    try BucketActivity.forEachEntry(in: UnsafeRawBufferPointer(rebasing: bytes[sections[end].bytes])) { user, count in
                        let index = Int(user)
                        if index >= totals.count { totals.append(contentsOf: repeatElement(0, count: max(index + 1 - totals.count, totals.count))) }
                        let known = totals[index]
                        var sum = UInt64(UInt32(clamping: count))
                        if known & ~0xFFFF_FFFF == stamp {
                            sum = min(known & 0xFFFF_FFFF + sum, 0xFFFF_FFFF)
                        } else {
                            users += 1
                        }
                        totals[index] = stamp | sum
                        maximum = max(maximum, sum)
                        events += count
                    }
                    end += 1
                }
                perUser[try label(name)] = PerUserStats(average: Double(events) / Double(users), maximum: Int(maximum))
                start = end
            }
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
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: max(word + 1 - words.count, words.count))) }
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        return true
    }
}
