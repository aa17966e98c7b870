extension ListLayout {
    /// The items of the rows that intersect `viewport`, a vertical range in list
    /// coordinates: from the first item of the first such row to the last item of the
    /// last, or `nil` when the viewport shows no item.
    ///
    /// A horizontal component counts as one row; ``visibleItems(inSection:)`` narrows it
    /// to what its scroll offset shows. O(log n): binary searches over components and
    /// rows, no allocation.
    public func items(in viewport: Range<Double>) -> ClosedRange<ItemPath>? {
        guard let first = firstItem(in: viewport), let last = lastItem(in: viewport), first <= last else { return nil }
        return first...last
    }

    private func firstItem(in viewport: Range<Double>) -> ItemPath? {
        var section = partitionPoint(sections.count) { origins[$0] + sections[$0].height > viewport.lowerBound }
        while section < sections.count, origins[section] < viewport.upperBound {
            let frames = sections[section]
            let local = viewport.lowerBound - origins[section]
            let row = partitionPoint(frames.rowBottoms.count) { frames.rowBottoms[$0] > local }
            if row < frames.rowStarts.count, frames.rowTops[row] + origins[section] < viewport.upperBound {
                return ItemPath(section: section, item: frames.rowStarts[row])
            }
            section += 1
        }
        return nil
    }

    private func lastItem(in viewport: Range<Double>) -> ItemPath? {
        var section = partitionPoint(sections.count) { origins[$0] >= viewport.upperBound } - 1
        while section >= 0, origins[section] + sections[section].height > viewport.lowerBound {
            let frames = sections[section]
            let local = viewport.upperBound - origins[section]
            let row = partitionPoint(frames.rowTops.count) { frames.rowTops[$0] >= local } - 1
            if row >= 0, frames.rowBottoms[row] + origins[section] > viewport.lowerBound {
                let end = row + 1 < frames.rowStarts.count ? frames.rowStarts[row + 1] : frames.frames.count
                return ItemPath(section: section, item: end - 1)
            }
            section -= 1
        }
        return nil
    }
}

/// The first index in `0..<count` where `isAfter` holds, for a predicate that is false
/// and then true; `count` when it never holds.
func partitionPoint(_ count: Int, _ isAfter: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
        let middle = (low + high) / 2
        if isAfter(middle) { high = middle } else { low = middle + 1 }
    }
    return low
}
