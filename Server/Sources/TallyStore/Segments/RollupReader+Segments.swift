/// What a filtered range of buckets adds up to, from one scan of its log (see
/// ``RollupReader/segmentScan(in:)``): a day's metric set asks for its events, screens, users
/// and per-user detail, and reads the log once.
struct SegmentScan {
    /// Matching events per name (`label` id).
    var events: [Int64: Int] = [:]
    /// Matching `screen_view` events per screen (`label` id).
    var screens: [Int64: Int] = [:]
    /// The users with a matching event.
    var users = UserSet()
    /// Per name (`label` id): its events, the users who sent it, and the most one user sent.
    var perUser: [Int64: (events: Int, users: Int, maximum: Int)] = [:]
    /// Users by the version (`label` id) of their last matching event.
    var versions: [Int64: Int] = [:]
}

/// The scans a reader made, by range, for the computations after the first.
final class SegmentScans {
    var scans: [Range<Int64>: SegmentScan] = [:]
}

extension RollupReader {
    /// Calls `body` with each bucket of `buckets` that has a log, the log, and per entry of
    /// its key dictionary whether the ``segment``'s event conditions hold (all, without one).
    /// Users the segment's user conditions leave out are the body's to skip (see
    /// ``SegmentMatcher/allows(user:)``).
    func forEachLog(
        in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ log: BucketLog.View, _ keyMatches: [Bool]) throws -> Void
    ) throws {
        for (bucket, log, keyMatches) in try logs(in: buckets) { try body(bucket, log.view, keyMatches) }
    }

    /// Each bucket of `buckets` that has a log, the log, and per entry of its key dictionary
    /// whether the ``segment``'s event conditions hold (all, without one).
    func logs(in buckets: Range<Int64>) throws -> [(bucket: Int64, log: BucketLogCache.Log, keyMatches: [Bool])] {
        try rows.logs(in: buckets).map { bucket, log in (bucket, log, log.view.keys.map { segment?.matches(key: $0) ?? true }) }
    }

    /// Calls `body` with the bucket and each event of `buckets` the ``segment`` matches, in
    /// bucket order and, within a bucket, by name, user and time.
    func forEachSegmentEvent(in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ event: BucketLog.Entry) throws -> Void) throws {
        try forEachLog(in: buckets) { bucket, log, keyMatches in
            for section in log.sections {
                try log.forEachRun(of: section) { user, events in
                    guard segment?.allows(user: user) ?? true else { return }
                    for index in events where keyMatches[log.keyIndex(at: index)] {
                        try body(
                            bucket,
                            BucketLog.Entry(
                                user: user, offset: log.offset(at: index), name: section.name, key: log.keys[log.keyIndex(at: index)],
                                screen: log.screens[log.screenIndex(at: index)]))
                    }
                }
            }
        }
    }

    /// The scan of `buckets` under the ``segment``, made once per reader and range.
    ///
    /// Every count lives in arrays indexed densely (names and screens by ``DenseLabels``, users
    /// by a slot given at their first event), not in dictionaries: with a dictionary per
    /// event the scan of a day of the 20,000-user fixture under `app_version` took 56 ms. A
    /// user's events of a name are one run of the log, counted at once.
    func segmentScan(in buckets: Range<Int64>) throws -> SegmentScan {
        if let known = scans.scans[buckets] { return known }
        guard let segment else { throw RollupNeeds.Unfetched() }
        var tally = ScanTally()
        var versionTexts: [Int64: String] = [:]
        func versionText(_ id: Int64) throws -> String {
            if let known = versionTexts[id] { return known }
            let text = try label(id)
            versionTexts[id] = text
            return text
        }
        try forEachLog(in: buckets) { bucket, log, keyMatches in
            // Per dictionary entry of the log: the dense index of its screen, and the version
            // of its key.
            let screens = log.screens.map { $0 == 0 ? -1 : tally.screen($0) }
            let versions = log.keys.map { segment.versions[Int($0)] }
            let start = bucket * Bucket.milliseconds
            for section in log.sections {
                let name = tally.name(section.name)
                try log.forEachRun(of: section) { user, events in
                    guard segment.allows(user: user) else { return }
                    var matched = 0
                    var slot = -1
                    for index in events {
                        let key = log.keyIndex(at: index)
                        guard keyMatches[key] else { continue }
                        matched += 1
                        if slot < 0 { slot = tally.slot(of: user) }
                        let screen = screens[log.screenIndex(at: index)]
                        if screen >= 0 { tally.screenEvents[screen] += 1 }
                        // The last event: the latest, and between events at one millisecond
                        // the greatest version text.
                        let time = start + Int64(log.offset(at: index))
                        let version = versions[key]
                        var later = time > tally.lastTime[slot]
                        if time == tally.lastTime[slot], version != tally.lastVersion[slot] {
                            later = try versionText(version) > versionText(tally.lastVersion[slot])
                        }
                        if later { (tally.lastTime[slot], tally.lastVersion[slot]) = (time, version) }
                    }
                    if matched > 0 { tally.add(matched, name: name, slot: slot) }
                }
            }
        }
        var scan = SegmentScan()
        var users = DenseFlags()
        for user in tally.slotUsers { _ = users.insert(user) }
        scan.users = users.userSet
        // The logs' dictionaries name every screen of their buckets, matching or not.
        for (index, label) in tally.names.labels.enumerated() where tally.nameEvents[index] > 0 {
            scan.events[label] = tally.nameEvents[index]
            var total = (events: tally.nameEvents[index], users: 0, maximum: 0)
            for count in tally.perName[index] where count > 0 {
                total.users += 1
                total.maximum = max(total.maximum, Int(count))
            }
            scan.perUser[label] = total
        }
        for (index, label) in tally.screens.labels.enumerated() where tally.screenEvents[index] > 0 {
            scan.screens[label] = tally.screenEvents[index]
        }
        for version in tally.lastVersion { scan.versions[version, default: 0] += 1 }
        scans.scans[buckets] = scan
        return scan
    }

    /// The users with a matching event in `buckets`: for the whole UTC days inside, the union
    /// of the matching keys' `day_key_users` sets; for the buckets at the edges, a scan of
    /// their logs.
    func segmentUsers(in buckets: Range<Int64>, _ segment: SegmentMatcher) throws -> UserSet {
        var sets: [UserSet] = []
        for (period, range) in Self.userSetRows(covering: buckets) {
            switch period {
            case .day:
                let keys = segment.matchingKeys
                try rows.forEachDayKeyUsers(in: range) { key, users in
                    if keys.contains(key) { sets.append(try UserSet(serialized: users)) }
                }
            case .bucket:
                sets.append(try segmentScan(in: range).users)
            }
        }
        return segment.allowed(UserSet.union(sets))
    }

    /// ``userDetail(in:)`` over the matching events: per name, the events each user sent;
    /// per user, the version of their last matching event (at one millisecond, the greatest
    /// version text).
    func segmentUserDetail(in buckets: Range<Int64>) throws -> (perUser: [String: PerUserStats], versions: [String: Int]) {
        let scan = try segmentScan(in: buckets)
        var perUser: [String: PerUserStats] = [:]
        for (name, total) in scan.perUser {
            perUser[try label(name)] = PerUserStats(average: Double(total.events) / Double(total.users), maximum: total.maximum)
        }
        return (perUser, try texts(of: scan.versions))
    }
}

/// Dense indexes for `label` ids met in a scan, in order of first meeting: an array lookup per
/// event where a dictionary would hash.
struct DenseLabels {
    /// Per `label` id below ``arrayLimit``: its index plus one, or 0.
    private var indexes: [Int32] = []
    /// Indexes of larger ids.
    private var others: [Int64: Int] = [:]
    /// The ids, by index.
    private(set) var labels: [Int64] = []
    /// The largest id held in the array: ids are small row numbers, but a store's label table
    /// could hold millions.
    private static let arrayLimit: Int64 = 1 << 20

    /// The index of `label`, the next one if it is new.
    @inline(__always)
    mutating func index(of label: Int64) -> Int {
        if label >= 0, label < Self.arrayLimit {
            let id = Int(label)
            if id < indexes.count, indexes[id] > 0 { return Int(indexes[id]) - 1 }
            if id >= indexes.count { indexes.append(contentsOf: repeatElement(0, count: id + 1 - indexes.count)) }
            indexes[id] = Int32(labels.count + 1)
        } else if let known = others[label] {
            return known
        } else {
            others[label] = labels.count
        }
        labels.append(label)
        return labels.count - 1
    }
}

/// The running totals of a ``RollupReader/segmentScan(in:)``, in arrays indexed densely: one
/// value the scan's closures mutate in place.
private struct ScanTally {
    var names = DenseLabels()
    var screens = DenseLabels()
    var nameEvents: [Int] = []
    var screenEvents: [Int] = []
    /// Per user number: the user's slot, or -1.
    var slots: [Int32] = []
    /// Per slot: the user, and the millisecond and version of their last event.
    var slotUsers: [UInt32] = []
    var lastTime: [Int64] = []
    var lastVersion: [Int64] = []
    /// Per name index, per slot: the user's events of the name.
    var perName: [[UInt32]] = []

    /// The index of the name `label`.
    mutating func name(_ label: Int64) -> Int {
        let index = names.index(of: label)
        if index == nameEvents.count {
            nameEvents.append(0)
            perName.append([])
        }
        return index
    }

    /// The index of the screen `label`.
    mutating func screen(_ label: Int64) -> Int {
        let index = screens.index(of: label)
        if index == screenEvents.count { screenEvents.append(0) }
        return index
    }

    /// The slot of `user`, given at their first event.
    mutating func slot(of user: UInt32) -> Int {
        let number = Int(user)
        if number >= slots.count { slots.append(contentsOf: repeatElement(-1, count: max(number + 1 - slots.count, slots.count))) }
        if slots[number] < 0 {
            slots[number] = Int32(slotUsers.count)
            slotUsers.append(user)
            lastTime.append(.min)
            lastVersion.append(0)
        }
        return Int(slots[number])
    }

    /// Counts `events` events of the name `name` by the user of `slot`.
    mutating func add(_ events: Int, name: Int, slot: Int) {
        nameEvents[name] += events
        if perName[name].count <= slot { perName[name].append(contentsOf: repeatElement(0, count: slotUsers.count - perName[name].count)) }
        perName[name][slot] += UInt32(events)
    }
}
