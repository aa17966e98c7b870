extension RollupReader {
    /// What a filtered range of buckets adds up to, from one scan of its log.
    struct SegmentSummary {
        /// Matching events per name (`label` id).
        var events: [Int64: Int] = [:]
        /// Matching `screen_view` events per screen (`label` id).
        var screens: [Int64: Int] = [:]
    }

    /// Calls `body` with the bucket and each event of `buckets` the ``segment`` matches, in
    /// bucket order and, within a bucket, by user and time.
    func forEachSegmentEvent(in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ event: BucketLog.Entry) throws -> Void) throws {
        guard let segment else {
            return try rows.forEachLog(in: buckets) { bucket, bytes in
                var cursor = BucketLog.Cursor(bytes)
                while let entry = try cursor.next() { try body(bucket, entry) }
            }
        }
        try rows.forEachLog(in: buckets) { bucket, bytes in
            var cursor = BucketLog.Cursor(bytes)
            while let entry = try cursor.next() {
                if segment.matches(key: entry.key) && segment.allows(user: entry.user) { try body(bucket, entry) }
            }
        }
    }

    /// Matching events per name and screen over `buckets`.
    func segmentSummary(in buckets: Range<Int64>) throws -> SegmentSummary {
        var summary = SegmentSummary()
        try forEachSegmentEvent(in: buckets) { _, entry in
            summary.events[entry.name, default: 0] += 1
            if entry.screen != 0 { summary.screens[entry.screen, default: 0] += 1 }
        }
        return summary
    }

    /// The users with a matching event in `buckets`: for the whole UTC days inside, the union
    /// of the matching keys' `day_key_users` sets; for the buckets at the edges, a scan of
    /// their logs.
    func segmentUsers(in buckets: Range<Int64>, _ segment: SegmentMatcher) throws -> UserSet {
        var sets: [UserSet] = []
        var edges = DenseFlags()
        for (period, range) in Self.userSetRows(covering: buckets) {
            switch period {
            case .day:
                let keys = segment.matchingKeys
                try rows.forEachDayKeyUsers(in: range) { key, users in
                    if keys.contains(key) { sets.append(try UserSet(serialized: users)) }
                }
            case .bucket:
                try forEachSegmentEvent(in: range) { _, entry in _ = edges.insert(entry.user) }
            }
        }
        sets.append(edges.userSet)
        return segment.allowed(UserSet.union(sets))
    }

    /// ``userDetail(in:)`` over the matching events: per name, the events each user sent;
    /// per user, the version of their last matching event (at one millisecond, the greatest
    /// version text).
    func segmentUserDetail(in buckets: Range<Int64>) throws -> (perUser: [String: PerUserStats], versions: [String: Int]) {
        guard let segment else { return try userDetail(in: buckets) }
        var perNameUser: [UInt64: UInt32] = [:]
        var last: [UInt32: (time: Int64, version: Int64)] = [:]
        var versionTexts: [Int64: String] = [:]
        func versionText(_ id: Int64) throws -> String {
            if let known = versionTexts[id] { return known }
            let text = try label(id)
            versionTexts[id] = text
            return text
        }
        try forEachSegmentEvent(in: buckets) { bucket, entry in
            perNameUser[UInt64(entry.name) << 32 | UInt64(entry.user), default: 0] += 1
            let time = bucket * Bucket.milliseconds + Int64(entry.offset)
            let version = segment.versions[Int(entry.key)]
            if let known = last[entry.user] {
                if known.time > time { return }
                if known.time == time, try versionText(known.version) >= versionText(version) { return }
            }
            last[entry.user] = (time, version)
        }
        var totals: [Int64: (events: Int, users: Int, maximum: Int)] = [:]
        for (key, count) in perNameUser {
            let name = Int64(key >> 32)
            var total = totals[name] ?? (0, 0, 0)
            total.events += Int(count)
            total.users += 1
            total.maximum = max(total.maximum, Int(count))
            totals[name] = total
        }
        var perUser: [String: PerUserStats] = [:]
        for (name, total) in totals {
            perUser[try label(name)] = PerUserStats(average: Double(total.events) / Double(total.users), maximum: total.maximum)
        }
        var versionUsers: [Int64: Int] = [:]
        for (_, event) in last { versionUsers[event.version, default: 0] += 1 }
        return (perUser, try texts(of: versionUsers))
    }
}
