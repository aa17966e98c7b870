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
        // A batch's events mostly share their version and platform: compared, not hashed again.
        var previous: (version: String, platform: String)?
        for (event, timestamp) in events {
            texts.insert(event.name)
            if previous?.version != event.appVersion || previous?.platform != event.platform {
                texts.insert(event.appVersion)
                texts.insert(event.platform)
                previous = (event.appVersion, event.platform)
            }
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

    /// Each event's segment key, as `label` ids, in the order of ``events``.
    func keys(_ properties: SegmentProperties, labels: [String: Int64]) -> [[Int64]] {
        var previous = (version: "", platform: "", ids: [Int64]())
        return events.map { event, _ in
            if previous.ids.isEmpty || previous.version != event.appVersion || previous.platform != event.platform {
                previous = (event.appVersion, event.platform, [labels[event.appVersion]!, labels[event.platform]!])
            }
            var key = previous.ids
            key.reserveCapacity(2 + 2 * properties.event.count)
            for property in properties.event {
                key.append(labels[property]!)
                key.append(event.properties[property]?.segmentText.map { labels[$0]! } ?? 0)
            }
            return key
        }
    }

    /// The changes, given each event's key (``keys(_:labels:)``) and the keys' numbers, the
    /// users' numbers and the labels' ids.
    func changes(
        _ properties: SegmentProperties, keys: [[Int64]], keyNumbers: [[Int64]: Int64], users: [String: UInt32],
        labels: [String: Int64]
    ) -> Changes {
        var changes = Changes()
        for ((event, timestamp), key) in zip(events, keys) {
            let user = users[event.userID]!
            let bucket = Bucket.containing(milliseconds: timestamp)
            let number = keyNumbers[key]!
            changes.log[bucket, default: []].append(
                BucketLog.Entry(
                    user: user, offset: UInt32(timestamp - bucket * Bucket.milliseconds), name: labels[event.name]!, key: number,
                    screen: Self.screen(of: event).map { labels[$0]! } ?? 0))
            changes.dayKeys[DayKey(day: Bucket.day(of: bucket), key: number), default: []].append(user)
            for assignment in UserTraits.assignments(of: event, timestamp: timestamp, properties: properties.user) {
                let trait = Trait(value: labels[assignment.value]!, text: assignment.value, rank: assignment.rank)
                let key = TraitKey(property: labels[properties.user[assignment.property]]!, user: user)
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
