/// The items of one snapshot's matched sections that were not paired in order: after a
/// swap, two per side. Only these are hashed, matched by Heckel's passes and placed, so
/// the later stages of the diff cost what the edit costs, not what the list holds.
///
/// One flat array of paths; section `s` holds positions `ranges[s]`, in item order.
@usableFromInline
struct Unpaired {
    @usableFromInline var paths: [ItemPath] = []
    @usableFromInline var ranges: [Range<Int>]

    /// None yet, in a snapshot of `sectionCount` sections.
    @inlinable
    init(sectionCount: Int) {
        ranges = Array(repeating: 0..<0, count: sectionCount)
    }

    /// The number of unpaired items.
    @inlinable
    var count: Int { paths.count }

    /// Appends `items` of `section`; a section's items are appended in order and
    /// together, before the next section's.
    @inlinable
    mutating func append(_ items: Range<Int>, of section: Int) {
        guard !items.isEmpty else { return }
        assert(ranges[section].isEmpty || ranges[section].upperBound == paths.count, "a section's items are appended together")
        let start = ranges[section].isEmpty ? paths.count : ranges[section].lowerBound
        paths.append(contentsOf: items.lazy.map { ItemPath(section: section, item: $0) })
        ranges[section] = start..<paths.count
    }
}
