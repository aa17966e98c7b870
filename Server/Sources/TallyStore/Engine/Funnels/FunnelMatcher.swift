/// A funnel's steps and breakdown compiled against one app's stored labels, segment keys and
/// user properties: which steps each logged event matches, and its breakdown value.
struct FunnelMatcher {
    /// A step with conditions beside its name.
    private struct Conditional {
        var bit: UInt16
        /// The conditions other than on `screen`, if any.
        var segment: SegmentMatcher?
        /// The `screen` condition: the listed screens' `label` ids, and whether it is `!=`.
        var screens: (ids: Set<Int64>, isNegated: Bool)?

        func matches(_ entry: BucketLog.Entry) -> Bool {
            if let segment, !(segment.matches(key: entry.key) && segment.allows(user: entry.user)) { return false }
            if let screens, screens.ids.contains(entry.screen) == screens.isNegated { return false }
            return true
        }
    }

    /// Each step's name as a `label` id, `nil` if no event has it.
    let stepNames: [Int64?]
    /// The breakdown's values, by index; `nil` for none.
    private(set) var values: [String?] = []
    /// Per name `label` id from `nameBase`: the bits of the steps of that name.
    private var nameSteps: [UInt16] = []
    private var nameBase: Int64 = 0
    private var conditional: [Conditional] = []
    /// Per segment key number, or per user number: the index of its breakdown value.
    private var keyValues: [Int32]?
    private var userValues: [Int32]?
    private var noValue: Int32 = 0

    /// Compiles `steps` and `breakdown` over `reader`'s rows.
    ///
    /// - Throws: ``TallyStoreError/unknownFilterProperty(_:)``; a database error.
    init(steps: [FunnelStep], breakdown: String?, reader: RollupReader) throws {
        let names = try steps.map { try reader.labelID($0.event) }
        stepNames = names
        nameBase = names.compactMap { $0 }.min() ?? 0
        nameSteps = [UInt16](repeating: 0, count: Int((names.compactMap { $0 }.max() ?? nameBase) - nameBase) + 1)
        let known = Set(reader.properties.filterNames + ["screen"])
        for case let condition in steps.flatMap(\.conditions.conditions) where !known.contains(condition.property) {
            throw TallyStoreError.unknownFilterProperty(condition.property)
        }
        for (index, (step, name)) in zip(steps, names).enumerated() {
            let bit = UInt16(1) << index
            guard let name else { continue }
            nameSteps[Int(name - nameBase)] |= bit
            guard !step.conditions.isEmpty else { continue }
            var condition = Conditional(bit: bit)
            let others = step.conditions.conditions.filter { $0.property != "screen" }
            if !others.isEmpty {
                condition.segment = try SegmentMatcher(SegmentFilter(others), properties: reader.properties, rows: reader.rows)
            }
            for screen in step.conditions.conditions where screen.property == "screen" {
                let ids = Set(try screen.values.compactMap { try reader.labelID($0) })
                // Several screen conditions: only one can be kept exactly, so they must agree.
                if let known = condition.screens {
                    guard known.isNegated == screen.isNegated else { throw TallyStoreError.invalidFunnel("a step has both == and != on screen") }
                    condition.screens = (screen.isNegated ? known.ids.union(ids) : known.ids.intersection(ids), screen.isNegated)
                } else {
                    condition.screens = (ids, screen.isNegated)
                }
            }
            conditional.append(condition)
        }
        guard let breakdown else { return }
        var indexes: [Int64: Int32] = [:]
        func index(of label: Int64) throws -> Int32 {
            if let known = indexes[label] { return known }
            let new = Int32(values.count)
            values.append(label == 0 ? nil : try reader.label(label))
            indexes[label] = new
            return new
        }
        noValue = try index(of: 0)
        let properties = reader.properties
        if properties.user.contains(breakdown) {
            var users: [Int32] = []
            if let property = try reader.labelID(breakdown) {
                try reader.rows.forEachTraitUsers(property: property) { value, members in
                    let valueIndex = try index(of: value)
                    for user in try UserSet(serialized: members) {
                        if Int(user) >= users.count { users.append(contentsOf: repeatElement(noValue, count: Int(user) + 1 - users.count)) }
                        users[Int(user)] = valueIndex
                    }
                }
            }
            userValues = users
            return
        }
        guard SegmentProperties.builtIn.contains(breakdown) || properties.event.contains(breakdown) else {
            throw TallyStoreError.unknownFilterProperty(breakdown)
        }
        let name = try reader.labelID(breakdown)
        let stored = try reader.rows.segmentKeys()
        var keys = [Int32](repeating: noValue, count: Int(stored.keys.max() ?? -1) + 1)
        for (number, labels) in stored {
            keys[Int(number)] = try index(of: SegmentKey.value(of: breakdown, named: name, in: labels))
        }
        keyValues = keys
    }

    /// The `label` ids of the steps' names that any event has, ascending, each once.
    var names: [Int64] {
        nameSteps.indices.filter { nameSteps[$0] != 0 }.map { nameBase + Int64($0) }
    }

    /// The bits of the steps with conditions beside their name.
    var conditionalSteps: UInt16 { conditional.reduce(0) { $0 | $1.bit } }

    /// The bits of the steps named `name` (a `label` id), before their conditions.
    func steps(named name: Int64) -> UInt16 {
        let index = name &- nameBase
        return index >= 0 && index < nameSteps.count ? nameSteps[Int(index)] : 0
    }

    /// The bits of the steps `entry` matches (bit 0: the first step).
    @inline(__always)
    func steps(of entry: BucketLog.Entry) -> UInt16 {
        var mask = steps(named: entry.name)
        guard mask != 0 else { return 0 }
        for condition in conditional where mask & condition.bit != 0 && !condition.matches(entry) { mask &= ~condition.bit }
        return mask
    }

    /// The index in ``values`` of `entry`'s breakdown value (0 without a breakdown).
    @inline(__always)
    func value(of entry: BucketLog.Entry) -> Int32 {
        if let keyValues { return entry.key < keyValues.count ? keyValues[Int(entry.key)] : noValue }
        if let userValues { return Int(entry.user) < userValues.count ? userValues[Int(entry.user)] : noValue }
        return 0
    }
}
