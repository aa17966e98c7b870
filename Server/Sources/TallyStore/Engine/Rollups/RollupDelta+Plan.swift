/// The decisions of a ``RollupDelta``'s write, shared by the backends: each step takes the
/// rows a backend read and returns the rows it must write.
extension RollupDelta {
    /// A user whose first event moved: a new user (`from` is `nil`), or one whose
    /// `first_seen` an earlier event lowered. Buckets, not instants.
    struct FirstSeenMove {
        var user: UInt32
        var from: Int64?
        var to: Int64
    }

    /// What the delta changes in `app_user`, and every user's number.
    struct UserChanges {
        /// The number of every user of the delta.
        var numbers: [String: UInt32] = [:]
        /// New rows of `app_user`.
        var inserted: [(user: String, number: UInt32, firstSeen: Int64)] = []
        /// Stored users whose `first_seen` the delta lowers, with the new value.
        var lowered: [(user: String, firstSeen: Int64)] = []
        /// Every user whose first event moved, for ``RollupDelta/setChanges(numbers:moves:)``.
        var moves: [FirstSeenMove] = []
    }

    /// The changes to the two user sets of one row of `bucket_users` or `day_users`.
    struct SetChanges {
        var active: [UInt32] = []
        var firstAdded: [UInt32] = []
        var firstRemoved: [UInt32] = []

        /// The row's sets after the changes, or `nil` if they change nothing.
        func applied(to stored: (active: UserSet, first: UserSet)?) -> (active: UserSet, first: UserSet)? {
            let stored = stored ?? (UserSet(), UserSet())
            var (active, first) = stored
            for user in self.active { active.insert(user) }
            for user in firstRemoved { first.remove(user) }
            for user in firstAdded { first.insert(user) }
            return (active, first) == stored ? nil : (active, first)
        }
    }

    /// The users of the delta the cache cannot account for: their `app_user` rows must be read
    /// (each may be missing) before ``userChanges(app:stored:nextNumber:cache:)``.
    func usersToLookUp(app: AppID, cache: RollupCache) -> [String] {
        firstSeen.compactMap { user, timestamp in
            guard let known = cache.users[RollupCache.AppUser(app: app, user: user)], known.firstSeen <= timestamp else { return user }
            return nil
        }
    }

    /// Every user's number and the changes to `app_user`: new users get the numbers from
    /// `nextNumber` on, in no particular order, and stored users whose first event the delta
    /// moves earlier get the new instant. Records in `cache` what the write stores.
    ///
    /// - Parameters:
    ///   - stored: The `app_user` rows found for ``usersToLookUp(app:cache:)``.
    ///   - nextNumber: One more than the app's highest stored number (0 for an app without users).
    /// - Throws: ``TallyStoreError/tooManyUsers(_:)`` when the numbers would pass `UInt32.max`.
    func userChanges(
        app: AppID, stored: [String: RollupCache.User], nextNumber: Int64, cache: inout RollupCache
    ) throws(TallyStoreError) -> UserChanges {
        var changes = UserChanges()
        changes.numbers.reserveCapacity(firstSeen.count)
        var next = nextNumber
        for (user, timestamp) in firstSeen {
            let key = RollupCache.AppUser(app: app, user: user)
            if let known = cache.users[key], known.firstSeen <= timestamp {
                changes.numbers[user] = known.number
                continue
            }
            var known: RollupCache.User
            if let row = stored[user] {
                known = row
                if row.firstSeen > timestamp {
                    changes.lowered.append((user, timestamp))
                    changes.moves.append(
                        FirstSeenMove(
                            user: row.number, from: Bucket.containing(milliseconds: row.firstSeen), to: Bucket.containing(milliseconds: timestamp)))
                    known.firstSeen = timestamp
                }
            } else {
                guard let number = UInt32(exactly: next) else { throw .tooManyUsers(app) }
                next += 1
                known = RollupCache.User(number: number, firstSeen: timestamp)
                changes.inserted.append((user, number, timestamp))
                changes.moves.append(FirstSeenMove(user: number, from: nil, to: Bucket.containing(milliseconds: timestamp)))
            }
            changes.numbers[user] = known.number
            cache.users[key] = known
        }
        return changes
    }

    /// The counts to add to `name_bucket` and `screen_bucket`, by bucket and `label` id.
    func countRows(labels: [String: Int64]) -> (
        names: [(bucket: Int64, label: Int64, count: Int64)], screens: [(bucket: Int64, label: Int64, count: Int64)]
    ) {
        (names.map { ($0.key.bucket, labels[$0.key.label]!, $0.value) }, screens.map { ($0.key.bucket, labels[$0.key.label]!, $0.value) })
    }

    /// The version ids stored as a user's last event in `bucket` at the same millisecond as one
    /// of `entries`' last events, but with another version: ``merge(_:into:bucket:labels:versionTexts:)``
    /// compares texts there and needs theirs.
    static func tiedVersions(
        _ entries: [(user: UInt32, activity: Activity)], in stored: BucketActivity, bucket: Int64, labels: [String: Int64]
    ) -> Set<Int64> {
        var tied: Set<Int64> = []
        for (user, activity) in entries {
            if let known = stored.last[user], known.offset == activity.lastTimestamp - bucket * Bucket.milliseconds,
                known.version != labels[activity.lastVersion]
            {
                tied.insert(known.version)
            }
        }
        return tied
    }

    /// Merges a bucket's per-user detail into its stored `bucket_activity` row: counts add up,
    /// and the later last event wins (on a tie, the greater version text).
    ///
    /// - Parameter versionTexts: The texts of ``tiedVersions(_:in:bucket:labels:)``.
    static func merge(
        _ entries: [(user: UInt32, activity: Activity)], into stored: inout BucketActivity, bucket: Int64,
        labels: [String: Int64], versionTexts: [Int64: String]
    ) {
        let start = bucket * Bucket.milliseconds
        for (user, activity) in entries {
            for (name, count) in activity.counts { stored.names[labels[name]!, default: [:]][user, default: 0] += count }
            let last = BucketActivity.LastEvent(offset: activity.lastTimestamp - start, version: labels[activity.lastVersion]!)
            if let known = stored.last[user],
                known.offset > last.offset
                    || known.offset == last.offset
                        && (known.version == last.version || versionTexts[known.version, default: ""] > activity.lastVersion)
            {
                continue
            }
            stored.last[user] = last
        }
    }

    /// The changes to the user sets of each bucket (`bucket_users`) and UTC day (`day_users`).
    func setChanges(numbers: [String: UInt32], moves: [FirstSeenMove]) -> (buckets: [Int64: SetChanges], days: [Int64: SetChanges]) {
        var buckets: [Int64: SetChanges] = [:]
        var days: [Int64: SetChanges] = [:]
        for (bucket, user) in activeUsers(numbers: numbers) {
            buckets[bucket, default: SetChanges()].active.append(user)
            days[Bucket.day(of: bucket), default: SetChanges()].active.append(user)
        }
        for move in moves {
            buckets[move.to, default: SetChanges()].firstAdded.append(move.user)
            days[Bucket.day(of: move.to), default: SetChanges()].firstAdded.append(move.user)
            if let from = move.from {
                buckets[from, default: SetChanges()].firstRemoved.append(move.user)
                days[Bucket.day(of: from), default: SetChanges()].firstRemoved.append(move.user)
            }
        }
        return (buckets, days)
    }
}
