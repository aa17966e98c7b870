import TallyEvent

/// The changes one transaction's accepted events make to what segments and funnels read, part
/// of its ``RollupDelta``: the events, kept until the write knows the app's
/// ``SegmentProperties``, then planned here for every backend.
///
/// An event's **segment key** is the combination of its `app_version`, its `platform` and,
/// for each event segment property, the property's name and the event's value of it, as
/// `label` ids (0: no value), in that order. Each app numbers the combinations it has seen
/// densely from 0 (`segment_key`); a key names its properties, so a number keeps its meaning
/// when the app's segment properties change (the store then rebuilds what refers to keys).
/// The write:
///
/// 1. interns ``labelTexts(_:)`` and resolves ``keys(_:labels:)`` to numbers;
/// 2. merges ``Changes/log`` into each bucket's ``BucketLog`` and ``Changes/dayKeys`` into
///    `day_key_users`;
/// 3. applies ``Changes/traits`` to `user_trait` and `trait_users` where ``Trait/beats(_:storedText:)``.
///
/// Every merge is commutative, as the other rollups' are.
struct SegmentDelta {
    /// A day and a segment key: one row of `day_key_users`.
    struct DayKey: Hashable {
        var day: Int64
        var key: Int64
    }

    /// A user property of a user: one row of `user_trait`.
    struct TraitKey: Hashable {
        /// The property name's `label` id.
        var property: Int64
        var user: UInt32
    }

    /// A user property's value and rank (see ``UserTraits``).
    struct Trait {
        /// The value's `label` id.
        var value: Int64
        var text: String
        var rank: Int64

        /// Whether this value replaces the stored one, of rank `stored.rank` and text
        /// `storedText` (needed only when the ranks tie).
        func beats(_ stored: (value: Int64, rank: Int64), storedText: () throws -> String) rethrows -> Bool {
            if rank != stored.rank { return rank > stored.rank }
            return try value != stored.value && text > storedText()
        }
    }

    /// What the write changes.
    struct Changes {
        /// New events per bucket.
        var log: [Int64: [BucketLog.Entry]] = [:]
        /// Users to add per day and key.
        var dayKeys: [DayKey: [UInt32]] = [:]
        /// The best value the delta sets per user property of a user.
        var traits: [TraitKey: Trait] = [:]
    }

    /// The accepted events and their timestamps in milliseconds since 1970.
    private(set) var events: [(event: Event, timestamp: Int64)] = []

    /// Adds an accepted event.
    mutating func add(_ event: Event, timestamp: Int64) {
        events.append((event, timestamp))
    }

    /// Whether no event was added.
    var isEmpty: Bool { events.isEmpty }

    /// Every text the write needs a `label` id for: names, screens, versions, platforms,
    /// event segment property values, and user properties' names and values.
    func labelTexts(_ properties: SegmentProperties) -> Set<String> {
        var texts = Set(properties.user + properties.event)
        // A batch's events mostly share their version and platform, and often their name with
        // the one before: compared, not hashed again.
        var previous: (name: String, version: String, platform: String)?
        for (event, timestamp) in events {
            if previous?.name != event.name { texts.insert(event.name) }
            if previous?.version != event.appVersion || previous?.platform != event.platform {
                texts.insert(event.appVersion)
                texts.insert(event.platform)
            }
            previous = (event.name, event.appVersion, event.platform)
            if let screen = Self.screen(of: event) { texts.insert(screen) }
            for property in properties.event {
                if let value = event.properties[property]?.segmentText { texts.insert(value) }
            }
            for assignment in UserTraits.assignments(of: event, timestamp: timestamp, properties: properties.user) {
                texts.insert(assignment.value)
            }
        }
        return texts
    }

    /// Each event's segment key, as `label` ids, in the order of ``events``, and the distinct keys.
    ///
    /// A batch's events mostly share their key with the one before: such an event takes the
    /// same array, neither built nor hashed again (building and hashing one per event was a
    /// fifth of the segments' share of ingest).
    func keys(_ properties: SegmentProperties, labels: [String: Int64]) -> (ofEvents: [[Int64]], distinct: Set<[Int64]>) {
        var previous: (version: String, platform: String, values: [String?], key: [Int64])?
        var distinct: Set<[Int64]> = []
        let ofEvents = events.map { event, _ in
            if let previous, previous.version == event.appVersion, previous.platform == event.platform,
                zip(properties.event, previous.values).allSatisfy({ event.properties[$0]?.segmentText == $1 })
            {
                return previous.key
            }
            let values = properties.event.map { event.properties[$0]?.segmentText }
            var key = [labels[event.appVersion]!, labels[event.platform]!]
            key.reserveCapacity(2 + 2 * properties.event.count)
            for (property, value) in zip(properties.event, values) {
                key.append(labels[property]!)
                key.append(value.map { labels[$0]! } ?? 0)
            }
            distinct.insert(key)
            previous = (event.appVersion, event.platform, values, key)
            return key
        }
        return (ofEvents, distinct)
    }

    /// The changes, given each event's key (``keys(_:labels:)``) and the keys' numbers, the
    /// users' numbers and the labels' ids.
    func changes(
        _ properties: SegmentProperties, keys: [[Int64]], keyNumbers: [[Int64]: Int64], users: [String: UInt32],
        labels: [String: Int64]
    ) -> Changes {
        var changes = Changes()
        // Consecutive events mostly share their user, name and key: looked up once.
        var previous: (user: String, number: UInt32, name: String, label: Int64, key: [Int64], keyNumber: Int64)?
        for ((event, timestamp), key) in zip(events, keys) {
            var known =
                previous
                ?? (event.userID, users[event.userID]!, event.name, labels[event.name]!, key, keyNumbers[key]!)
            if known.user != event.userID { (known.user, known.number) = (event.userID, users[event.userID]!) }
            if known.name != event.name { (known.name, known.label) = (event.name, labels[event.name]!) }
            if known.key != key { (known.key, known.keyNumber) = (key, keyNumbers[key]!) }
            previous = known
            let bucket = Bucket.containing(milliseconds: timestamp)
            changes.log[bucket, default: []].append(
                BucketLog.Entry(
                    user: known.number, offset: UInt32(timestamp - bucket * Bucket.milliseconds), name: known.label, key: known.keyNumber,
                    screen: Self.screen(of: event).map { labels[$0]! } ?? 0))
            changes.dayKeys[DayKey(day: Bucket.day(of: bucket), key: known.keyNumber), default: []].append(known.number)
            for assignment in UserTraits.assignments(of: event, timestamp: timestamp, properties: properties.user) {
                let trait = Trait(value: labels[assignment.value]!, text: assignment.value, rank: assignment.rank)
                let key = TraitKey(property: labels[properties.user[assignment.property]]!, user: known.number)
                if let known = changes.traits[key], !trait.beats((known.value, known.rank), storedText: { known.text }) { continue }
                changes.traits[key] = trait
            }
        }
        return changes
    }

    /// The `screen` of a `screen_view`, the screens the log keeps.
    static func screen(of event: Event) -> String? {
        guard event.name == "screen_view", case .string(let screen)? = event.properties["screen"] else { return nil }
        return screen
    }
}

/// The changes to the `trait_users` sets that a write's new user property values make.
struct TraitMoves {
    /// One `trait_users` row: a property's value.
    struct Row: Hashable {
        /// The property name's `label` id.
        var property: Int64
        /// The value's `label` id.
        var value: Int64
    }

    /// The users a row's set gains and loses.
    struct Change {
        var added: [UInt32] = []
        var removed: [UInt32] = []

        /// Applies the change to the row's stored set.
        func apply(to set: inout UserSet) {
            for user in removed { set.remove(user) }
            for user in added { set.insert(user) }
        }
    }

    private(set) var rows: [Row: Change] = [:]

    /// Records that `user` now has the value of `row`.
    mutating func add(_ user: UInt32, to row: Row) {
        rows[row, default: Change()].added.append(user)
    }

    /// Records that `user` no longer has the value of `row`.
    mutating func remove(_ user: UInt32, from row: Row) {
        rows[row, default: Change()].removed.append(user)
    }
}
