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
/// 1. reads the events once into a ``Plan``, interns its ``Plan/texts`` and resolves its
///    ``Plan/keyLabels(_:)`` to numbers;
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
        /// The purchases (see ``Plan/purchases``).
        var purchases: [PurchaseRow] = []
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

    /// The delta's events read once, under the app's segment properties: every text the write
    /// needs a `label` id for, each once, and per event the indexes of its texts.
    struct Plan {
        /// Names, screens, versions, platforms, event segment property names and values, and
        /// user property names and values, each once.
        private(set) var texts: [String] = []
        /// Per event of ``SegmentDelta/events``: its name's and screen's index in ``texts``
        /// (-1: no screen), and its key's index in ``keys``.
        fileprivate var events: [(name: Int32, screen: Int32, key: Int32)] = []
        /// Each distinct key as indexes in ``texts``: the version, the platform and, for each
        /// event segment property, its name and the event's value (-1: none).
        fileprivate var keys: [[Int32]] = []
        /// The user property values the events set: the event's index, and the value and its
        /// index in ``texts``.
        fileprivate var traits: [(event: Int, assignment: UserTraits.Assignment, value: Int32)] = []
        /// Each user segment property's index in ``texts``.
        fileprivate var userProperties: [Int32] = []
        /// The purchase events' indexes and purchases (see ``Purchase``), when the plan was
        /// made with a purchase event.
        fileprivate var purchases: [(event: Int, purchase: Purchase)] = []
        /// The purchase events that carry no purchase, per reason.
        fileprivate(set) var purchaseProblems: [Purchase.Problem: Int] = [:]
        private var indexes: [String: Int32] = [:]

        /// The index of `text` in ``texts``, added if missing.
        fileprivate mutating func index(of text: String) -> Int32 {
            if let index = indexes[text] { return index }
            let index = Int32(texts.count)
            texts.append(text)
            indexes[text] = index
            return index
        }

        /// The `label` id of each of ``texts``, from `labels`.
        ///
        /// - Throws: ``DamagedRollup`` if `labels` lacks one.
        func ids(_ labels: [String: Int64]) throws(DamagedRollup) -> [Int64] {
            try texts.map { text throws(DamagedRollup) in
                guard let id = labels[text] else { throw DamagedRollup(table: "label") }
                return id
            }
        }

        /// The number of each key of `labels` (``keyLabels(_:)``), from `numbers`.
        ///
        /// - Throws: ``DamagedRollup`` if `numbers` lacks one.
        static func numbers(of labels: [[Int64]], in numbers: [[Int64]: Int64]) throws(DamagedRollup) -> [Int64] {
            try labels.map { key throws(DamagedRollup) in
                guard let number = numbers[key] else { throw DamagedRollup(table: "segment_key") }
                return number
            }
        }

        /// The `label` id of each key (see ``SegmentKey``), given each text's id.
        func keyLabels(_ ids: [Int64]) -> [[Int64]] {
            keys.map { key in key.map { $0 < 0 ? 0 : ids[Int($0)] } }
        }
    }

    /// The delta's events read once under `properties` (see ``Plan``).
    ///
    /// Each text is hashed once an event (a version and platform equal to the event before's
    /// not at all), and each event's key once, as indexes: the texts were hashed once to list
    /// them and again to look up their ids, and each event's key built as an array of ids and
    /// hashed twice.
    ///
    /// With a `purchaseEvent`, the plan also reads each event of that name as a ``Purchase``:
    /// a rebuild, which reads raw events already counted, passes none.
    func plan(_ properties: SegmentProperties, purchaseEvent: String? = nil) -> Plan {
        var plan = Plan()
        let eventProperties = properties.event.map { plan.index(of: $0) }
        plan.userProperties = properties.user.map { plan.index(of: $0) }
        var keyIndexes: [[Int32]: Int32] = [:]
        var key: [Int32] = []
        var previous: (version: String, platform: String, indexes: (version: Int32, platform: Int32))?
        plan.events.reserveCapacity(events.count)
        for (position, (event, timestamp)) in events.enumerated() {
            let shared: (version: Int32, platform: Int32)
            if let previous, previous.version == event.appVersion, previous.platform == event.platform {
                shared = previous.indexes
            } else {
                shared = (plan.index(of: event.appVersion), plan.index(of: event.platform))
                previous = (event.appVersion, event.platform, shared)
            }
            key.removeAll(keepingCapacity: true)
            key.append(shared.version)
            key.append(shared.platform)
            for (property, name) in zip(properties.event, eventProperties) {
                key.append(name)
                key.append(event.properties[property]?.segmentText.map { plan.index(of: $0) } ?? -1)
            }
            let keyIndex: Int32
            if let known = keyIndexes[key] {
                keyIndex = known
            } else {
                keyIndex = Int32(plan.keys.count)
                plan.keys.append(key)
                keyIndexes[key] = keyIndex
            }
            plan.events.append((plan.index(of: event.name), Self.screen(of: event).map { plan.index(of: $0) } ?? -1, keyIndex))
            if event.name == purchaseEvent {
                switch Purchase.read(event.properties) {
                case .success(let purchase): plan.purchases.append((position, purchase))
                case .failure(let problem): plan.purchaseProblems[problem, default: 0] += 1
                }
            }
            for assignment in UserTraits.assignments(of: event, timestamp: timestamp, properties: properties.user) {
                plan.traits.append((position, assignment, plan.index(of: assignment.value)))
            }
        }
        return plan
    }

    /// The changes, given `plan`'s texts' `label` ids, its keys' numbers (in the order of
    /// ``Plan/keyLabels(_:)``) and the users' numbers.
    ///
    /// - Throws: ``DamagedRollup`` if `users` lacks an event's user.
    func changes(_ plan: Plan, ids: [Int64], keyNumbers: [Int64], users: [String: UInt32]) throws(DamagedRollup) -> Changes {
        var changes = Changes()
        var numbers: [UInt32] = []
        numbers.reserveCapacity(events.count)
        // A client's batch is mostly one session: its hash is computed once a run.
        var session: (id: String?, hash: UInt64) = (nil, 0)
        for ((event, timestamp), planned) in zip(events, plan.events) {
            guard let user = users[event.userID] else { throw DamagedRollup(table: "app_user") }
            numbers.append(user)
            let bucket = Bucket.containing(milliseconds: timestamp)
            let number = keyNumbers[Int(planned.key)]
            if event.sessionID != session.id { session = (event.sessionID, SessionHash.of(event.sessionID)) }
            changes.log[bucket, default: []].append(
                BucketLog.Entry(
                    user: user, offset: UInt32(timestamp - bucket * Bucket.milliseconds), name: ids[Int(planned.name)], key: number,
                    screen: planned.screen < 0 ? 0 : ids[Int(planned.screen)], session: session.hash))
            changes.dayKeys[DayKey(day: Bucket.day(of: bucket), key: number), default: []].append(user)
        }
        for (position, purchase) in plan.purchases {
            changes.purchases.append(
                PurchaseRow(
                    timestamp: events[position].timestamp, user: numbers[position], key: keyNumbers[Int(plan.events[position].key)],
                    currency: purchase.currency, micros: purchase.micros))
        }
        for (position, assignment, value) in plan.traits {
            let trait = Trait(value: ids[Int(value)], text: assignment.value, rank: assignment.rank)
            let key = TraitKey(property: ids[Int(plan.userProperties[assignment.property])], user: numbers[position])
            if let known = changes.traits[key], !trait.beats((known.value, known.rank), storedText: { known.text }) { continue }
            changes.traits[key] = trait
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
