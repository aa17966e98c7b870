/// The metrics computations over one app's rollups, whichever backend's rows (see
/// ``RollupRows``) they read: each works over a range of 15-minute buckets (see ``Bucket``).
///
/// With a ``segment``, every computation counts only the events it matches and the users
/// through them (see ``SegmentFilter``), read from the ``BucketLog`` and the per-key user sets
/// instead of the unfiltered rollups.
struct RollupReader {
    /// The app whose rows ``rows`` holds.
    let app: AppID
    let rows: any RollupRows
    /// The segment the computations are narrowed to, if any.
    var segment: SegmentMatcher?
    /// The app's segment properties, for funnels' step conditions and breakdowns.
    var properties = SegmentProperties()
    /// The log scans made so far under the ``segment``.
    let scans = SegmentScans()

    /// Events per name over `buckets`, from `name_bucket`.
    func eventCounts(in buckets: Range<Int64>) throws -> [String: Int] {
        if segment != nil { return try texts(of: segmentScan(in: buckets).events) }
        return try counts(.names, in: buckets)
    }

    /// `screen_view` events per screen over `buckets`, from `screen_bucket`.
    func screenCounts(in buckets: Range<Int64>) throws -> [String: Int] {
        if segment != nil { return try texts(of: segmentScan(in: buckets).screens) }
        return try counts(.screens, in: buckets)
    }

    /// Sums the counts per `label` id of `table`'s rows over `buckets`, then looks up each
    /// label's text once. SQLite's `GROUP BY` sorted a day's 2,400 screen rows and 1,150 name
    /// rows first: summing here took the day's metrics from 5.0 to 3.8 ms p50 on the
    /// 20,000-user fixture.
    private func counts(_ table: CountTable, in buckets: Range<Int64>) throws -> [String: Int] {
        var counts: [Int64: Int] = [:]
        try rows.forEachCount(table, in: buckets) { _, label, count in counts[label, default: 0] += Int(count) }
        return try texts(of: counts)
    }

    /// `counts` by the texts of their labels.
    func texts(of counts: [Int64: Int]) throws -> [String: Int] {
        var texts: [String: Int] = [:]
        for (id, count) in counts { texts[try label(id), default: 0] += count }
        return texts
    }

    /// Calls `body` with the bucket, name (a `label` id) and count of each `name_bucket` row
    /// in `buckets`, in bucket order.
    func forEachNameCount(in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ name: Int64, _ count: Int64) -> Void) throws {
        guard segment != nil else { return try rows.forEachCount(.names, in: buckets, body) }
        var counts: [Int64: Int64] = [:]
        var current: Int64?
        try forEachSegmentEvent(in: buckets) { bucket, entry in
            if bucket != current {
                if let current { for (name, count) in counts { body(current, name, count) } }
                counts.removeAll(keepingCapacity: true)
                current = bucket
            }
            counts[entry.name, default: 0] += 1
        }
        if let current { for (name, count) in counts { body(current, name, count) } }
    }

    /// Calls `body` with the bucket, user number and events of each user who sent `name` (a
    /// `label` id) in a bucket of `buckets`, in bucket order, from `bucket_activity`.
    func forEachUserCount(
        of name: Int64, in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ user: Int64, _ count: Int) -> Void
    ) throws {
        if segment != nil {
            // A bucket's log holds each user's events together.
            var run: (bucket: Int64, user: UInt32, count: Int)?
            try forEachSegmentEvent(in: buckets) { bucket, entry in
                guard entry.name == name else { return }
                if let current = run, current.bucket == bucket, current.user == entry.user {
                    run!.count += 1
                } else {
                    if let run { body(run.bucket, Int64(run.user), run.count) }
                    run = (bucket, entry.user, 1)
                }
            }
            if let run { body(run.bucket, Int64(run.user), run.count) }
            return
        }
        try rows.forEachActivity(in: buckets, latestFirst: false) { bucket, names, _ in
            try BucketActivity.forEachSection(in: names) { label, entries in
                guard label == name else { return }
                try BucketActivity.forEachEntry(in: entries) { user, count in body(bucket, Int64(user), Int(count)) }
            }
        }
    }

    /// The id of the `label` with text `text`, or `nil` if no event name, version or screen has it.
    func labelID(_ text: String) throws -> Int64? {
        try rows.labelID(text)
    }

    /// The text of the `label` with id `id`.
    func label(_ id: Int64) throws -> String {
        try rows.label(id)
    }
}
