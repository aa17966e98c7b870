import Dispatch
import Locking

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

extension SegmentScan {
    /// One scan of the users of `scans`, each a scan of users no other has.
    init(merging scans: [SegmentScan]) {
        guard scans.count > 1 else {
            self = scans.first ?? SegmentScan()
            return
        }
        for scan in scans {
            events.merge(scan.events, uniquingKeysWith: +)
            screens.merge(scan.screens, uniquingKeysWith: +)
            perUser.merge(scan.perUser) { ($0.events + $1.events, $0.users + $1.users, max($0.maximum, $1.maximum)) }
            versions.merge(scan.versions, uniquingKeysWith: +)
        }
        users = UserSet.union(scans.map(\.users))
    }
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

    /// How ``segmentScan(in:)`` reads `buckets`: each UTC day it covers at least half of from
    /// the day's ``DayLog``s, which are made from all of the day's bucket logs (`days`: the
    /// day, and the part of `buckets` in it), and the other buckets from their bucket logs.
    static func scanParts(of buckets: Range<Int64>) -> (days: [(day: Int64, buckets: Range<Int64>)], logs: [Range<Int64>]) {
        var parts: (days: [(day: Int64, buckets: Range<Int64>)], logs: [Range<Int64>]) = ([], [])
        guard !buckets.isEmpty else { return parts }
        for day in Bucket.day(of: buckets.lowerBound)...Bucket.day(of: buckets.upperBound - 1) {
            let part = max(buckets.lowerBound, day * Bucket.perDay)..<min(buckets.upperBound, (day + 1) * Bucket.perDay)
            if part.count * 2 >= Bucket.perDay { parts.days.append((day, part)) } else { parts.logs.append(part) }
        }
        return parts
    }

    /// The scan of `buckets` under the ``segment``, made once per reader and range.
    ///
    /// The UTC days it covers at least half of are read from their ``DayLog``s, made from the
    /// day's bucket logs unless kept (as a funnel's are), the other buckets from their bucket
    /// logs (see ``scanParts(of:)``). A day log holds each user's events of its name together,
    /// so a day's scan meets each user once per name instead of once per name and bucket,
    /// where finding each run's user among the 200,000 of that fixture missed the caches: a
    /// UTC day under `app_version` went from 7.4 to 6.8 ms p50, and under `app_version` and
    /// `platform` from 5.7 to 4.0 ms.
    ///
    /// Every count lives in plain memory indexed densely (names and screens by
    /// ``DenseLabels``, users by a slot given at their first event; see ``ScanTally``), not in
    /// dictionaries: with a dictionary per event the scan of a day of the 20,000-user fixture
    /// under `app_version` took 56 ms.
    ///
    /// A large scan counts two halves of the users on two threads, each in a ``ScanTally`` of
    /// its own, then merges them (see ``runsForTwoThreads``).
    func segmentScan(in buckets: Range<Int64>) throws -> SegmentScan {
        if let known = scans.scans[buckets] { return known }
        guard let segment else { throw RollupNeeds.Unfetched() }
        let parts = Self.scanParts(of: buckets)
        var days: [(day: Int64, revisions: [Int64])] = []
        var windows: [Range<UInt32>] = []
        var dayBucketLogs: [Int64: [(bucket: Int64, log: BucketLogCache.Log)]] = [:]
        var names: Set<Int64> = []
        for (day, part) in parts.days {
            let logs = try rows.logs(in: day * Bucket.perDay..<(day + 1) * Bucket.perDay)
            guard !logs.isEmpty else { continue }
            days.append((day, logs.map(\.log.revision)))
            let start = day * Bucket.perDay
            windows.append(UInt32((part.lowerBound - start) * Bucket.milliseconds)..<UInt32((part.upperBound - start) * Bucket.milliseconds))
            dayBucketLogs[day] = logs
            for (_, log) in logs { names.formUnion(log.view.sections.map(\.name)) }
        }
        let dayNames = names.sorted()
        let dayLogs = try rows.logCache.dayLogs(app: app, names: dayNames, days: days) { dayBucketLogs[$0] ?? [] }
        let bucketLogs = try parts.logs.flatMap { try rows.logs(in: $0) }
        let sections = bucketLogs.flatMap(\.log.view.sections)
        let runs = sections.reduce(0) { $0 + $1.runCount } + dayLogs.reduce(0) { $0 + $1.users.count }
        // The texts of the keys' versions, which order two last events at one millisecond
        // (0, a key the matcher does not know, as the empty text).
        var versionTexts: [Int64: String] = [:]
        for keys in dayLogs.map(\.keys) + bucketLogs.map(\.log.view.keys) {
            for version in keys.map(segment.version(ofKey:)) where versionTexts[version] == nil {
                versionTexts[version] = version == 0 ? "" : try label(version)
            }
        }
        let texts = versionTexts
        let users = try rows.userCount()
        // Two halves of the users, one a thread, once the scan is large enough to pay for
        // the second thread: split at the middle user of the largest day log.
        let largest = dayLogs.map(\.users).max { $0.count < $1.count }
        let middle = largest.flatMap { $0.isEmpty ? nil : $0[$0.count / 2] } ?? UInt32(users / 2)
        let halves = runs < Self.runsForTwoThreads || middle == 0 ? [0..<UInt32.max] : [0..<middle, middle..<UInt32.max]
        let (dayStarts, windowsOfDays) = (days.map { $0.day * Bucket.perDay * Bucket.milliseconds }, windows)
        // What both halves read, made once.
        let (scanNames, scanScreens) = (dayNames + sections.map(\.name), dayLogs.flatMap(\.screens) + bucketLogs.flatMap(\.log.view.screens))
        let keyMatches = bucketLogs.map { $0.log.view.keys.map(segment.matches(key:)) }
        let results = Locked([Result<SegmentScan, any Error>?](repeating: nil, count: halves.count))
        DispatchQueue.concurrentPerform(iterations: halves.count) { half in
            let result = Result {
                let tally = ScanTally(
                    users: users, range: halves[half], names: scanNames, screens: scanScreens, runs: runs,
                    namesRepeat: dayStarts.count > 1 || !bucketLogs.isEmpty)
                let versionText = { (id: Int64) in texts[id] ?? "" }
                for (index, log) in dayLogs.enumerated() {
                    let day = index / dayNames.count
                    try tally.add(
                        log, name: dayNames[index % dayNames.count], start: dayStarts[day], window: windowsOfDays[day],
                        segment: segment, versionText: versionText)
                }
                for ((bucket, log), keyMatches) in zip(bucketLogs, keyMatches) {
                    try tally.add(
                        log.view, start: bucket * Bucket.milliseconds, keyMatches: keyMatches, segment: segment, versionText: versionText)
                }
                return tally.scan
            }
            results.withLock { $0[half] = result }
        }
        let scan = SegmentScan(merging: try results.withLock { $0 }.map { try $0!.get() })
        scans.scans[buckets] = scan
        return scan
    }

    /// The runs (users of a name in a log) from which a scan takes two threads. A UTC day
    /// of the 200,000-user fixture under `app_version` went from 2.14-2.36 ms p50 to
    /// 1.53-1.65 on two; below this many runs, a scan is a fraction of a millisecond, of
    /// which starting the second thread and merging the halves would take a good part.
    static let runsForTwoThreads = 16_384

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

/// The running totals of a ``RollupReader/segmentScan(in:)``, in plain memory indexed
/// densely, its properties unchecked for exclusive access. With arrays in a struct that the
/// scan's closures mutated, each write checked uniqueness and each array's growth copied and
/// faulted in fresh pages: a UTC day of the 200,000-user fixture under `app_version` took
/// 9.9–10.7 ms p50, against 8.5–9.4 in plain memory sized up front.
private final class ScanTally {
    @exclusivity(unchecked) var names = DenseLabels()
    @exclusivity(unchecked) var screens = DenseLabels()
    /// Per name index: its matching events, the users who sent one, and the most one user sent.
    @exclusivity(unchecked) var nameCounts = PlainBuffer<(events: Int, users: Int, maximum: UInt32)>()
    let nameCount: Int
    /// Per screen index: its matching events.
    @exclusivity(unchecked) var screenEvents = PlainBuffer<Int>()
    let screenCount: Int
    /// The users it counts; the others' events are left out.
    let range: Range<UInt32>
    /// Per user number from the range's first: the user's slot, or -1.
    @exclusivity(unchecked) var slots = PlainBuffer<Int32>()
    @exclusivity(unchecked) var userCapacity: Int
    /// Per slot: the user, and the millisecond and version of their last matching event.
    @exclusivity(unchecked) var users = PlainBuffer<UInt32>()
    @exclusivity(unchecked) var last = PlainBuffer<(time: Int64, version: Int64)>()
    /// Per slot, per name index: the user's matching events of the name, kept only when
    /// ``namesRepeat``.
    @exclusivity(unchecked) var perName = PlainBuffer<UInt32>()
    @exclusivity(unchecked) var slotCount = 0
    /// Whether a user's events of a name may come in more than one count: from more than one
    /// log. A single day's day logs hold each user's events of a name in one run, whose count
    /// is the user's.
    let namesRepeat: Bool

    /// A tally of the users in `range` of an app whose user numbers are below `users`
    /// (larger ones still count), over logs that hold the names `names` and the screens
    /// `screens` (`label` ids, 0 for none) and at most `runs` runs (users of a name in a log),
    /// more than one of a name if `namesRepeat`.
    init(users: Int, range: Range<UInt32>, names: [Int64], screens: [Int64], runs: Int, namesRepeat: Bool) {
        (self.range, self.namesRepeat) = (range, namesRepeat)
        for name in names { _ = self.names.index(of: name) }
        for screen in screens where screen != 0 { _ = self.screens.index(of: screen) }
        let count = self.names.labels.count
        nameCount = count
        nameCounts.reserve(count)
        nameCounts.base.initialize(repeating: (0, 0, 0), count: count)
        screenCount = self.screens.labels.count
        screenEvents.reserve(screenCount)
        screenEvents.base.initialize(repeating: 0, count: screenCount)
        userCapacity = max(min(users, Int(range.upperBound)) - Int(range.lowerBound), 1)
        slots.reserve(userCapacity)
        slots.base.initialize(repeating: -1, count: userCapacity)
        // Each user takes a slot at their first run: at most as many as either. Memory is
        // touched only as slots are given.
        let most = max(min(users, runs), 1)
        self.users.reserve(most)
        last.reserve(most)
        if namesRepeat { perName.reserve(most * count) }
    }

    deinit {
        nameCounts.free()
        screenEvents.free()
        slots.free()
        users.free()
        last.free()
        perName.free()
    }

    /// Counts the events of the bucket log `log`, whose bucket starts at millisecond `start`,
    /// that `keyMatches` (per entry of its key dictionary) and the `segment`'s users allow.
    ///
    /// - Parameter versionText: The text of a version's `label` id, to order two last
    ///   events at one millisecond.
    func add(
        _ log: BucketLog.View, start: Int64, keyMatches: [Bool], segment: SegmentMatcher, versionText: (Int64) throws -> String
    ) throws {
        let screenIndexes = try log.screens.map { $0 == 0 ? -1 : try screen($0) }
        let versions = log.keys.map { segment.version(ofKey: $0) }
        for section in log.sections {
            let name = try name(section.name)
            var runs = log.runs(of: section)
            while let run = try runs.next() {
                guard range.contains(run.user), segment.allows(user: run.user) else { continue }
                try add(
                    run.events, of: run.user, name: name, keyMatches: keyMatches, screenIndexes: screenIndexes, versions: versions,
                    key: log.keyIndex(at:), screen: log.screenIndex(at:), time: { start + Int64(log.offset(at: $0)) },
                    versionText: versionText)
            }
        }
    }

    /// Counts the events of the day log `log` of the name `label`, whose day starts at
    /// millisecond `start`, that lie in `window` (milliseconds from `start`) and that the
    /// `segment` matches.
    ///
    /// A day log holds each user's events of its name as one run in time order, so the run's
    /// last matching event is its user's last of the log: the loop over the events only counts
    /// the matching ones (and their screens, in a log that has any), and the user's slot and
    /// last event are looked at once a run. Looked at for every event, a UTC day of the
    /// 200,000-user fixture under `app_version` took 2.39-2.43 ms p50, against 2.23-2.31.
    func add(
        _ log: DayLog, name label: Int64, start: Int64, window: Range<UInt32>, segment: SegmentMatcher,
        versionText: (Int64) throws -> String
    ) throws {
        let matching = log.keys.map { segment.matches(key: $0) ? 1 : 0 }
        guard !log.users.isEmpty, matching.contains(1) else { return }
        let name = try name(label)
        let screenIndexes = try log.screens.map { $0 == 0 ? -1 : try screen($0) }
        let screens = screenIndexes.contains { $0 >= 0 }
        let versions = log.keys.map { segment.version(ofKey: $0) }
        let wholeDay = window.lowerBound == 0 && Int64(window.upperBound) >= Bucket.perDay * Bucket.milliseconds
        let (times, keys, users) = (log.times, log.keyIndexes, log.users)
        // The runs of the range's users, found by halves.
        var (run, high) = (0, users.count)
        while run < high {
            let middle = (run + high) / 2
            if users[middle] < range.lowerBound { run = middle + 1 } else { high = middle }
        }
        var first = run == 0 ? 0 : Int(log.ends[run - 1])
        for (user, end) in zip(users[run...], log.ends[run...]) {
            guard user < range.upperBound else { break }
            var (lower, upper) = (first, Int(end))
            first = upper
            if !wholeDay {
                // A user's events are in time order: those in the window are a contiguous run.
                while lower < upper, times[lower] < window.lowerBound { lower += 1 }
                while lower < upper, times[upper - 1] >= window.upperBound { upper -= 1 }
            }
            guard lower < upper, segment.allows(user: user) else { continue }
            var (matched, lastMatch) = (0, lower)
            for index in lower..<upper {
                let matches = matching[Int(keys[index])]
                matched &+= matches
                lastMatch = matches != 0 ? index : lastMatch
                if screens, matches != 0, case let screen = screenIndexes[Int(log.screenIndexes[index])], screen >= 0 {
                    screenEvents.base[screen] += 1
                }
            }
            guard matched > 0 else { continue }
            let slot = slot(of: user)
            // The last event: the latest, and between events at one millisecond the greatest
            // version text.
            var event = (time: start + Int64(times[lastMatch]), version: versions[Int(keys[lastMatch])])
            var tied = lastMatch
            while tied > lower, times[tied - 1] == times[lastMatch] {
                tied -= 1
                let version = versions[Int(keys[tied])]
                if matching[Int(keys[tied])] != 0, version != event.version, try versionText(version) > versionText(event.version) {
                    event.version = version
                }
            }
            try keepLast(event, slot: slot, versionText: versionText)
            count(UInt32(matched), slot: slot, name: name)
        }
    }

    /// Counts the `events` of one `user` and name index `name` that `keyMatches`, given each
    /// event's key and screen dictionary indexes and millisecond, and per dictionary entry the
    /// screen's dense index (-1: none) and the key's version.
    @inline(__always)
    private func add(
        _ events: Range<Int>, of user: UInt32, name: Int, keyMatches: [Bool], screenIndexes: [Int], versions: [Int64],
        key: (Int) -> Int, screen: (Int) -> Int, time: (Int) -> Int64, versionText: (Int64) throws -> String
    ) throws {
        var matched: UInt32 = 0
        var slot = -1
        for index in events {
            let key = key(index)
            guard keyMatches[key] else { continue }
            matched += 1
            if slot < 0 { slot = self.slot(of: user) }
            let screen = screenIndexes[screen(index)]
            if screen >= 0 { screenEvents.base[screen] += 1 }
            try keepLast((time(index), versions[key]), slot: slot, versionText: versionText)
        }
        guard matched > 0 else { return }
        count(matched, slot: slot, name: name)
    }

    /// Keeps `event` as the last matching event of the user of `slot` if it is later than the
    /// one kept: the latest, and between events at one millisecond the greatest version text.
    @inline(__always)
    private func keepLast(_ event: (time: Int64, version: Int64), slot: Int, versionText: (Int64) throws -> String) rethrows {
        let known = last.base[slot]
        var later = event.time > known.time
        if event.time == known.time, event.version != known.version {
            later = try versionText(event.version) > versionText(known.version)
        }
        if later { last.base[slot] = event }
    }

    /// Adds `matched` events of the name index `name` to the user of `slot`.
    @inline(__always)
    private func count(_ matched: UInt32, slot: Int, name: Int) {
        let total = nameCounts.base + name
        total.pointee.events += Int(matched)
        guard namesRepeat else {
            total.pointee.users += 1
            total.pointee.maximum = max(total.pointee.maximum, matched)
            return
        }
        let count = perName.base + slot * nameCount + name
        if count.pointee == 0 { total.pointee.users += 1 }
        count.pointee += matched
        total.pointee.maximum = max(total.pointee.maximum, count.pointee)
    }

    /// The dense index of the screen `label`, one of those the tally was made for.
    ///
    /// - Throws: ``DamagedRollup`` for another: the scan's logs name every screen they hold.
    private func screen(_ label: Int64) throws(DamagedRollup) -> Int {
        let index = screens.index(of: label)
        guard index < screenCount else { throw DamagedRollup(table: "bucket_log") }
        return index
    }

    /// The dense index of the name `label`, one of those the tally was made for.
    ///
    /// - Throws: ``DamagedRollup`` for another: the scan's logs name every name they hold.
    private func name(_ label: Int64) throws(DamagedRollup) -> Int {
        let index = names.index(of: label)
        guard index < nameCount else { throw DamagedRollup(table: "bucket_log") }
        return index
    }

    /// The slot of `user`, given at their first matching event.
    @inline(__always)
    private func slot(of user: UInt32) -> Int {
        let number = Int(user - range.lowerBound)
        if number >= userCapacity {
            let grown = max(number + 1, userCapacity * 2)
            slots.grow(to: grown, keeping: userCapacity)
            (slots.base + userCapacity).initialize(repeating: -1, count: grown - userCapacity)
            userCapacity = grown
        }
        if slots.base[number] >= 0 { return Int(slots.base[number]) }
        let slot = slotCount
        slotCount += 1
        slots.base[number] = Int32(slot)
        users.grow(to: slotCount, keeping: slot)
        last.grow(to: slotCount, keeping: slot)
        users.base[slot] = user
        last.base[slot] = (.min, 0)
        if namesRepeat {
            perName.grow(to: slotCount * nameCount, keeping: slot * nameCount)
            (perName.base + slot * nameCount).initialize(repeating: 0, count: nameCount)
        }
        return slot
    }

    /// What the tally adds up to.
    var scan: SegmentScan {
        var scan = SegmentScan()
        var flags = DenseFlags()
        for slot in 0..<slotCount { _ = flags.insert(users.base[slot]) }
        scan.users = flags.userSet
        // The logs' sections name every event of their buckets, matching or not.
        for (index, label) in names.labels.enumerated() where nameCounts.base[index].events > 0 {
            let total = nameCounts.base[index]
            scan.events[label] = total.events
            scan.perUser[label] = (total.events, total.users, Int(total.maximum))
        }
        for (index, label) in screens.labels.enumerated() where screenEvents.base[index] > 0 {
            scan.screens[label] = screenEvents.base[index]
        }
        var versions = DenseLabels()
        var counts: [Int] = []
        for slot in 0..<slotCount {
            let index = versions.index(of: last.base[slot].version)
            if index == counts.count { counts.append(0) }
            counts[index] += 1
        }
        for (index, version) in versions.labels.enumerated() { scan.versions[version] = counts[index] }
        return scan
    }
}
