/// A derived day log's dictionary of `label` ids or segment key numbers (see ``DayLog`` and
/// ``DaySessions``): the distinct values in the order first met, and each one's index.
struct DayDictionary {
    private var indexes: [Int64: UInt32] = [:]
    /// The distinct values, by index.
    private(set) var values: [Int64] = []

    /// The index of `value`, added if missing.
    mutating func index(of value: Int64) -> UInt32 {
        if let known = indexes[value] { return known }
        indexes[value] = UInt32(values.count)
        values.append(value)
        return UInt32(values.count - 1)
    }
}
