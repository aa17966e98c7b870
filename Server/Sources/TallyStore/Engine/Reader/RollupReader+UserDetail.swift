import Dispatch
import Locking

extension RollupReader {
    /// Per event name, how often the users who sent it in `buckets` sent it, and the users
    /// active in `buckets` by the app version of their last event, from `bucket_activity`.
    ///
    /// Versions: buckets are read latest first, and each user counts for the version of the
    /// first entry met, their last event (within a bucket, the stored entry is already the
    /// last, ties broken by version text).
    ///
    /// Names: each row's name sections are copied out as they are (about two bytes a user),
    /// then summed per user name by name, on two threads, each taking half the bytes (see
    /// ``totals(of:sections:bytes:)``). Gathering decoded entries in arrays per name instead
    /// took twice as long (2.3 against 1.2 ms on one thread for a day of the 20,000-user
    /// fixture), and an array per name and user number would grow with names times users, not
    /// with the day's data.
    func userDetail(in buckets: Range<Int64>) throws -> (perUser: [String: PerUserStats], versions: [String: Int]) {
        if segment != nil { return try segmentUserDetail(in: buckets) }
        var versionUsers = VersionUsers()
        var sectionBytes: [UInt8] = []
        var sections: [(name: Int64, bytes: Range<Int>)] = []
        try rows.forEachActivity(in: buckets, latestFirst: true) { _, names, versions in
            try BucketActivity.forEachSection(in: names) { name, entries in
                sections.append((name, sectionBytes.count..<sectionBytes.count + entries.count))
                sectionBytes.append(contentsOf: entries)
            }
            try versionUsers.add(versions)
        }

        // Name groups, split in two halves of about equal bytes summed on two threads.
        sections.sort { $0.name < $1.name }
        var groups: [Range<Int>] = []
        for index in sections.indices where index == 0 || sections[index].name != sections[index - 1].name {
            if let last = groups.popLast() { groups.append(last.lowerBound..<index) }
            groups.append(index..<sections.count)
        }
        var split = 0
        var firstHalfBytes = 0
        while split < groups.count, firstHalfBytes * 2 < sectionBytes.count {
            firstHalfBytes += groups[split].reduce(0) { $0 + sections[$1].bytes.count }
            split += 1
        }
        let halves = [groups[..<split], groups[split...]]
        let results = Locked<[Result<[NameTotal], any Error>]>([])
        let (bytes, sectionList) = (sectionBytes, sections)
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let result = Result { try Self.totals(of: halves[half], sections: sectionList, bytes: bytes) }
            results.withLock { $0.append(result) }
        }
        var perUser: [String: PerUserStats] = [:]
        for result in results.withLock({ $0 }) {
            for total in try result.get() {
                perUser[try label(total.name)] = PerUserStats(
                    average: Double(total.events) / Double(total.users), maximum: Int(total.maximum))
            }
        }
        return (perUser, try texts(of: versionUsers.users))
    }

    /// The users active in `buckets` by the app version of their last event, counted as
    /// ``userDetail(in:)`` counts them, without the per-name detail.
    func versionUsers(in buckets: Range<Int64>) throws -> [String: Int] {
        if segment != nil { return try segmentUserDetail(in: buckets).versions }
        var versionUsers = VersionUsers()
        try rows.forEachActivity(in: buckets, latestFirst: true) { _, _, versions in try versionUsers.add(versions) }
        return try texts(of: versionUsers.users)
    }
}

/// Users by app version, from `bucket_activity` rows read latest first: each user counts for
/// the version of the first entry met, their last event.
private struct VersionUsers {
    /// The users counted so far, by the version's `label` id.
    private(set) var users: [Int64: Int] = [:]
    private var assigned = DenseFlags()

    /// Counts the users of a row's `versions` blob not met in a later row.
    mutating func add(_ versions: UnsafeRawBufferPointer) throws {
        try BucketActivity.forEachSection(in: versions) { version, entries in
            var newUsers = 0
            try BucketActivity.forEachEntry(in: entries) { user, _ in
                if assigned.insert(user) { newUsers += 1 }
            }
            if newUsers > 0 { users[version, default: 0] += newUsers }
        }
    }
}

/// One event name's events on a day, the users who sent it, and the most one user sent.
private struct NameTotal: Sendable {
    var name: Int64
    var events: Int64 = 0
    var users = 0
    var maximum: UInt64 = 0
}

extension RollupReader {
    /// The totals of each name group of `sections` (ranges of `sections` with one name).
    ///
    /// Each user's events of the current name are summed in one array indexed by user
    /// number, stamped with the name so no reset is needed between names: per entry, one
    /// array access.
    private static func totals(
        of groups: ArraySlice<Range<Int>>, sections: [(name: Int64, bytes: Range<Int>)], bytes: [UInt8]
    ) throws -> [NameTotal] {
        // Per user number: the stamp of the name last counted (high 32 bits) and the user's
        // events of that name (low 32 bits, saturating: no user sends 2^32 events a day).
        var totals: [UInt64] = []
        return try bytes.withUnsafeBytes { bytes in
            try groups.enumerated().map { stampIndex, group in
                let stamp = UInt64(stampIndex + 1) << 32
                var total = NameTotal(name: sections[group.lowerBound].name)
                for section in sections[group] {
                    try BucketActivity.forEachEntry(in: UnsafeRawBufferPointer(rebasing: bytes[section.bytes])) { user, count in
                        let index = Int(user)
                        if index >= totals.count { totals.append(contentsOf: repeatElement(0, count: max(index + 1 - totals.count, totals.count))) }
                        let known = totals[index]
                        var sum = UInt64(UInt32(clamping: count))
                        if known & ~0xFFFF_FFFF == stamp {
                            sum = min(known & 0xFFFF_FFFF + sum, 0xFFFF_FFFF)
                        } else {
                            total.users += 1
                        }
                        totals[index] = stamp | sum
                        total.maximum = max(total.maximum, sum)
                        total.events += count
                    }
                }
                return total
            }
        }
    }
}

/// A growable bitmap of user numbers, for marking users once in a hot loop: cheaper than a
/// `Set<UInt32>` or a ``UserSet`` insertion when users arrive in no order.
struct DenseFlags {
    private var words: [UInt64] = []

    /// The marked users.
    var userSet: UserSet { UserSet(bits: words) }

    /// Marks `user`; returns whether it was unmarked.
    mutating func insert(_ user: UInt32) -> Bool {
        let word = Int(user >> 6)
        let bit: UInt64 = 1 << (user & 63)
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: max(word + 1 - words.count, words.count))) }
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        return true
    }
}
