/// Where the untrimmed items ("middles") of every section sit in one flat index space:
/// section `s` holds middle indices `starts[s]..<starts[s + 1]`, and its first middle
/// item is item `offsets[s]` of the section (the trimmed prefix). Sections without a
/// match hold none. Two small arrays instead of a path per item.
@usableFromInline
struct Middles {
    @usableFromInline var starts: [Int] = [0]
    @usableFromInline var offsets: [Int] = []

    @inlinable
    init() {}

    /// The number of middle items.
    @inlinable
    var count: Int { starts[starts.count - 1] }

    /// Appends the next section, of `count` items: its middle, `prefix..<(count - suffix)`;
    /// none for an unmatched section (`prefix == nil`).
    @inlinable
    mutating func appendSection(count: Int, prefix: Int?, suffix: Int) {
        let prefix = prefix ?? count
        starts.append(max(count - suffix - prefix, 0) + starts[starts.count - 1])
        offsets.append(prefix)
    }

    /// The middle indices of `section`.
    @inlinable
    func indices(of section: Int) -> Range<Int> {
        starts[section]..<starts[section + 1]
    }

    /// The path of the middle item at `index` in `section`.
    @inlinable
    func path(of index: Int, in section: Int) -> ItemPath {
        ItemPath(section: section, item: offsets[section] + index - starts[section])
    }

    /// The path of the middle item at `index`; O(log sections).
    @usableFromInline
    func path(of index: Int) -> ItemPath {
        path(of: index, in: partitionPoint(offsets.count) { starts[$0 + 1] > index })
    }
}
