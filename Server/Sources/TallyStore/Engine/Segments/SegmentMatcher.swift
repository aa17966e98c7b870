/// A ``SegmentFilter`` compiled against one app's stored segment keys and user properties:
/// what every filtered metric and funnel asks of each event.
///
/// Event conditions (`app_version`, `platform`, event properties) are decided once per
/// segment key, since a key holds exactly those values; user conditions once per user
/// property value, from the `trait_users` sets.
struct SegmentMatcher: Sendable {
    /// Per segment key number: whether its events meet every event condition.
    private let keys: [Bool]
    /// Per segment key number: its app version's `label` id.
    private let versions: [Int64]
    /// The users the user conditions allow: members of `included` (every user when `nil`)
    /// not in `excluded`.
    private let included: UserSet?
    private let excluded: UserSet
    /// `included` minus `excluded` when there is an `included`, else `excluded`, as bits.
    private let bits: UserBits
    /// Whether the filter has user conditions.
    let restrictsUsers: Bool

    /// Compiles `filter` for an app with segment properties `properties` over its rows.
    ///
    /// - Throws: ``TallyStoreError/unknownFilterProperty(_:)`` for a condition on a name that
    ///   is neither built in nor one of `properties`; a database error.
    init(_ filter: SegmentFilter, properties: SegmentProperties, rows: any RollupRows) throws {
        var texts: [Int64: String] = [:]
        func text(_ label: Int64) throws -> String {
            if let known = texts[label] { return known }
            let text = try rows.label(label)
            texts[label] = text
            return text
        }
        var eventConditions: [(condition: SegmentFilter.Condition, name: Int64?)] = []
        var included: UserSet?
        var excluded = UserSet()
        for condition in filter.conditions {
            switch condition.property {
            case let name where SegmentProperties.builtIn.contains(name): eventConditions.append((condition, nil))
            case let name where properties.event.contains(name): eventConditions.append((condition, try rows.labelID(name)))
            case let name where properties.user.contains(name):
                var listed = UserSet()
                if let property = try rows.labelID(name) {
                    try rows.forEachTraitUsers(property: property) { value, users in
                        if condition.values.contains(try text(value)) { listed.formUnion(try UserSet(serialized: users)) }
                    }
                }
                if condition.isNegated {
                    excluded.formUnion(listed)
                } else {
                    included = included.map { $0.intersection(listed) } ?? listed
                }
            case let name: throw TallyStoreError.unknownFilterProperty(name)
            }
        }
        let stored = try rows.segmentKeys()
        var keys = [Bool](repeating: false, count: Int(stored.keys.max() ?? -1) + 1)
        var versions = [Int64](repeating: 0, count: keys.count)
        for (number, labels) in stored {
            versions[Int(number)] = labels.first ?? 0
            keys[Int(number)] = try eventConditions.allSatisfy { condition, name in
                let value = SegmentKey.value(of: condition.property, named: name, in: labels)
                return condition.matches(value == 0 ? nil : try text(value))
            }
        }
        self.keys = keys
        self.versions = versions
        self.included = included
        self.excluded = excluded
        restrictsUsers = included != nil || !excluded.isEmpty
        bits = UserBits(included.map { $0.subtracting(excluded) } ?? excluded)
    }

    /// Whether events of the segment key `key` meet the event conditions.
    @inline(__always)
    func matches(key: Int64) -> Bool {
        key >= 0 && key < keys.count && keys[Int(key)]
    }

    /// The `label` id of the app version of the segment key `key` (0 for a key it does not
    /// know).
    @inline(__always)
    func version(ofKey key: Int64) -> Int64 {
        key >= 0 && key < versions.count ? versions[Int(key)] : 0
    }

    /// Whether the user conditions allow `user`.
    @inline(__always)
    func allows(user: UInt32) -> Bool {
        guard restrictsUsers else { return true }
        return bits.contains(user) == (included != nil)
    }

    /// The numbers of the segment keys whose events meet the event conditions.
    var matchingKeys: Set<Int64> {
        Set(keys.indices.filter { keys[$0] }.map(Int64.init))
    }

    /// The members of `users` the user conditions allow.
    func allowed(_ users: UserSet) -> UserSet {
        guard restrictsUsers else { return users }
        return (included.map(users.intersection) ?? users).subtracting(excluded)
    }
}

/// A bitmap of user numbers, for tests of membership in a hot loop: one load, where a
/// ``UserSet`` searches its chunks.
struct UserBits: Sendable {
    private var words: [UInt64] = []

    /// The bits of the members of `users`.
    init(_ users: UserSet) {
        for user in users {
            let word = Int(user >> 6)
            if word >= words.count { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
            words[word] |= 1 << (user & 63)
        }
    }

    /// Whether `user` is a member.
    @inline(__always)
    func contains(_ user: UInt32) -> Bool {
        let word = Int(user >> 6)
        return word < words.count && words[word] & (1 << (user & 63)) != 0
    }
}
