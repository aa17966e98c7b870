/// What the deletion of one user's data changes in an app's rollups, planned once for both
/// backends from the rollups themselves, never from raw events (which a retention horizon may
/// have deleted already).
///
/// A backend reads the rows the user is in and asks the removal what each becomes:
///
/// 1. the user sets (`day_users`, `bucket_users`, `day_key_users`, `trait_users`):
///    ``sets(active:first:)`` and ``set(_:)`` take the user's number out;
/// 2. each bucket the user was active in: ``find(in:bucket:)`` records the user's events in
///    the bucket's ``BucketLog`` and its tails, which a removal tail then hides (see
///    ``BucketLogTails``), and ``activity(names:versions:)`` takes the user out of its
///    ``BucketActivity``;
/// 3. then the recorded events give what the counts lose: ``names`` (`name_bucket`, the
///    same counts `bucket_activity` holds), ``screens`` (`screen_bucket`), the
///    ``dayKeys`` whose sets held the user, and the ``milliseconds`` of the raw events.
///
/// Every count rollup is a sum over the events the logs keep, so it is corrected exactly.
/// Afterwards, the segment keys (``keys``) and labels (``labels``) the user's events and
/// properties referred to are deleted where nothing else refers to them.
struct UserRemoval {
    /// A label counted in a bucket: one `name_bucket` or `screen_bucket` row.
    struct Labeled: Hashable {
        var bucket: Int64
        var label: Int64
    }

    /// The user's number in the app (`app_user.number`).
    let number: UInt32
    /// The user's events in the logs.
    private(set) var events = 0
    /// The user's events per bucket and name.
    private(set) var names: [Labeled: Int64] = [:]
    /// The user's `screen_view` events per bucket and screen.
    private(set) var screens: [Labeled: Int64] = [:]
    /// The days and segment keys of the user's events.
    private(set) var dayKeys: Set<SegmentDelta.DayKey> = []
    /// The milliseconds since 1970 of the user's events, each once.
    private(set) var milliseconds: Set<Int64> = []
    /// The user properties and values of the user's `user_trait` rows, as `label` ids.
    private var traits: Set<Int64> = []

    /// The segment keys of the user's events.
    var keys: Set<Int64> { Set(dayKeys.map(\.key)) }

    /// The labels the user's events and properties referred to, besides those of ``keys``:
    /// names, screens, user properties and their values.
    var labels: Set<Int64> { traits.union(names.keys.map(\.label)).union(screens.keys.map(\.label)) }

    init(number: UInt32) {
        self.number = number
    }

    /// Records that the user's value `value` of the user property `property` was deleted.
    mutating func removedTrait(property: Int64, value: Int64) {
        traits.formUnion([property, value])
    }

    /// A user set without the user.
    func set(_ users: UserSet) -> RowChange<UserSet> {
        var users = users
        guard users.remove(number) else { return .unchanged }
        return users.isEmpty ? .deleted : .replaced(users)
    }

    /// The `active` and `first` sets of a `bucket_users` or `day_users` row without the user.
    func sets(active: UserSet, first: UserSet) -> RowChange<(active: UserSet, first: UserSet)> {
        var (active, first) = (active, first)
        let removed = [active.remove(number), first.remove(number)]
        guard removed.contains(true) else { return .unchanged }
        return active.isEmpty && first.isEmpty ? .deleted : .replaced((active, first))
    }

    /// Records the user's events in a bucket's encoded log or tail, and returns whether it had
    /// any. The log keeps them; a removal tail hides them (see ``BucketLogTails``).
    ///
    /// - Throws: ``DamagedRollup`` if `bytes` is not a log.
    mutating func find(in bytes: UnsafeRawBufferPointer, bucket: Int64) throws -> Bool {
        let found = try BucketLog.events(of: number, in: bytes)
        for entry in found { record(entry, bucket: bucket) }
        return !found.isEmpty
    }

    /// Counts one of the user's events in a bucket's log.
    private mutating func record(_ entry: BucketLog.Entry, bucket: Int64) {
        events += 1
        names[Labeled(bucket: bucket, label: entry.name), default: 0] += 1
        if entry.screen != 0 { screens[Labeled(bucket: bucket, label: entry.screen), default: 0] += 1 }
        dayKeys.insert(SegmentDelta.DayKey(day: Bucket.day(of: bucket), key: entry.key))
        milliseconds.insert(bucket * Bucket.milliseconds + Int64(entry.offset))
    }

    /// A bucket's per-user detail (the `names` and `versions` blobs of ``BucketActivity``)
    /// without the user.
    ///
    /// - Throws: ``DamagedRollup`` if a blob is cut short.
    func activity(
        names: UnsafeRawBufferPointer, versions: UnsafeRawBufferPointer
    ) throws -> RowChange<(names: [UInt8], versions: [UInt8])> {
        let removed = (try BucketActivity.removing(number, from: names), try BucketActivity.removing(number, from: versions))
        guard removed.0 != nil || removed.1 != nil else { return .unchanged }
        let kept = (removed.0 ?? Array(names), removed.1 ?? Array(versions))
        return kept.0.isEmpty && kept.1.isEmpty ? .deleted : .replaced(kept)
    }
}
