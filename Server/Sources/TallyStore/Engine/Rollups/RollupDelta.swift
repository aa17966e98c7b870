import TallyEvent

/// The rollup changes caused by the events one transaction accepted (every batch of a group
/// commit, see ``GroupCommit``), aggregated in memory so the database sees one write per
/// rollup row touched instead of one per event.
///
/// Every rollup merge is commutative (sums, set unions, the later of two last events, the
/// earlier of two first events), so rollups do not depend on the order events arrive in.
///
/// The delta decides every change itself and leaves only reads and writes of rows to a
/// backend, in this order (see `RollupDelta+Plan.swift`; each backend's `write` follows it):
///
/// 1. users: ``usersToLookUp(app:cache:)``, then ``userChanges(app:stored:nextNumber:cache:)``;
/// 2. labels: ``labelTexts`` to intern, then ``countRows(labels:)``;
/// 3. per-user detail: ``activity(numbers:)``, merged into each bucket's stored row with
///    ``merge(_:into:bucket:labels:versionTexts:)`` after ``tiedVersions(_:in:bucket:labels:)``;
/// 4. user sets: ``setChanges(numbers:moves:)``, each applied to its stored row with
///    ``SetChanges/applied(to:)``;
/// 5. ``segments``, with the users' numbers.
struct RollupDelta {
    struct Labeled: Hashable {
        var bucket: Int64
        var label: String
    }

    private struct UserBucket: Hashable {
        var bucket: Int64
        var user: String
    }

    /// Per user and bucket: the events per name and the last event's timestamp and version,
    /// where "last" orders by timestamp, then by version, so ties resolve the same way however
    /// events arrive.
    struct Activity {
        /// A user sends few distinct names in a bucket, so a list beats a dictionary.
        var counts: [(name: String, count: Int64)] = []
        var lastTimestamp: Int64
        var lastVersion: String

        mutating func add(name: String, timestamp: Int64, version: String) {
            if let index = counts.firstIndex(where: { $0.name == name }) {
                counts[index].count += 1
            } else {
                counts.append((name, 1))
            }
            if (timestamp, version) > (lastTimestamp, lastVersion) { (lastTimestamp, lastVersion) = (timestamp, version) }
        }
    }

    private(set) var firstSeen: [String: Int64] = [:]
    private(set) var names: [Labeled: Int64] = [:]
    private(set) var screens: [Labeled: Int64] = [:]
    private var activity: [UserBucket: Activity] = [:]
    /// What segments and funnels read (see ``SegmentDelta``).
    private(set) var segments = SegmentDelta()

    /// Adds an accepted event that happened `timestamp` milliseconds after 1970.
    mutating func add(_ event: Event, timestamp: Int64) {
        let bucket = Bucket.containing(milliseconds: timestamp)
        let user = event.userID
        firstSeen[user] = min(firstSeen[user] ?? timestamp, timestamp)
        names[Labeled(bucket: bucket, label: event.name), default: 0] += 1
        if event.name == "screen_view", case .string(let screen)? = event.properties["screen"] {
            screens[Labeled(bucket: bucket, label: screen), default: 0] += 1
        }
        activity[UserBucket(bucket: bucket, user: user), default: Activity(lastTimestamp: timestamp, lastVersion: event.appVersion)]
            .add(name: event.name, timestamp: timestamp, version: event.appVersion)
        segments.add(event, timestamp: timestamp)
    }

    /// Every text the write needs a `label` id for: event names, screens and last versions.
    var labelTexts: Set<String> {
        var texts = Set(names.keys.map(\.label))
        texts.formUnion(screens.keys.map(\.label))
        texts.formUnion(activity.values.map(\.lastVersion))
        return texts
    }

    /// The per-user detail of each bucket, by user number.
    func activity(numbers: [String: UInt32]) -> [Int64: [(user: UInt32, activity: Activity)]] {
        var buckets: [Int64: [(user: UInt32, activity: Activity)]] = [:]
        for (key, value) in activity { buckets[key.bucket, default: []].append((numbers[key.user]!, value)) }
        return buckets
    }

    /// The users active in each bucket, by number, for ``setChanges(numbers:moves:)``.
    func activeUsers(numbers: [String: UInt32]) -> [(bucket: Int64, user: UInt32)] {
        activity.keys.map { ($0.bucket, numbers[$0.user]!) }
    }
}
