extension ListLayout {
    // Sections come from a browser too (a scroll of a component that has since gone):
    // one that does not exist reads as empty, and a scroll of it is ignored.

    /// The width of the row of the component at `section`: its items, spacing and side
    /// insets. Wider than the container when a horizontal component scrolls.
    public func contentWidth(ofSection section: Int) -> Double {
        sections.indices.contains(section) ? sections[section].contentWidth : 0
    }

    /// How far the component at `section` can scroll sideways.
    public func maxScrollOffset(ofSection section: Int) -> Double {
        max(0, contentWidth(ofSection: section) - environment.containerWidth)
    }

    /// The horizontal scroll offset of the component at `section`.
    ///
    /// Offsets are kept by component identity, so they survive updates, inserts before
    /// the component and moves of it; they are clamped to the current content. An update
    /// without the component forgets its offset.
    public func scrollOffset(ofSection section: Int) -> Double {
        guard sections.indices.contains(section) else { return 0 }
        return min(scrollOffsets[sections[section].id] ?? 0, maxScrollOffset(ofSection: section))
    }

    /// Scrolls the component at `section` to `offset`, clamped to its content (NaN is 0).
    public mutating func setScrollOffset(_ offset: Double, forSection section: Int) {
        guard sections.indices.contains(section) else { return }
        scrollOffsets[sections[section].id] = min(Self.clampedLength(offset), maxScrollOffset(ofSection: section))
    }

    /// Where the component at `section` may come to rest, ascending, per its
    /// ``ComponentLayout/snapping``: multiples of the container width (paging, at most
    /// ``maximumSnapTargets``), or each item's leading edge at the leading inset; always
    /// including 0 and the end.
    public func snapTargets(ofSection section: Int) -> [Double] {
        guard sections.indices.contains(section) else { return [] }
        let end = maxScrollOffset(ofSection: section)
        var targets: [Double]
        switch sections[section].style.snapping {
        case .none:
            return [0, end]
        case .paging:
            // A container narrower than a point would page a long row billions of times.
            let page = max(environment.containerWidth, end / Double(Self.maximumSnapTargets - 2))
            targets = page > 0 ? Array(stride(from: 0, to: end, by: page)) : [0]
        case .leadingEdge:
            let inset = sections[section].style.clamped.insets.left
            targets = [0] + sections[section].frames.lazy.map { $0.x - inset }.filter { $0 > 0 && $0 < end }
        }
        targets.append(end)
        return targets
    }

    /// The snap target nearest to `proposed`, where a scroll of the component at
    /// `section` that would end at `proposed` comes to rest. Without snapping, `proposed`
    /// clamped to the content.
    public func snappedOffset(_ proposed: Double, forSection section: Int) -> Double {
        guard sections.indices.contains(section) else { return 0 }
        let end = maxScrollOffset(ofSection: section)
        guard sections[section].style.snapping != .none else { return min(Self.clampedLength(proposed), end) }
        let targets = snapTargets(ofSection: section)
        let next = partitionPoint(targets.count) { targets[$0] >= proposed }
        if next == 0 { return targets[0] }
        if next == targets.count { return targets[targets.count - 1] }
        return proposed - targets[next - 1] <= targets[next] - proposed ? targets[next - 1] : targets[next]
    }

    /// The items of the component at `section` that its scroll offset shows across the
    /// container. For a vertical component, all of its items. O(log n).
    public func visibleItems(inSection section: Int) -> Range<Int> {
        guard sections.indices.contains(section) else { return 0..<0 }
        let frames = sections[section].frames
        guard sections[section].arrangement == .horizontal else { return 0..<frames.count }
        let left = scrollOffset(ofSection: section)
        let right = left + environment.containerWidth
        let first = partitionPoint(frames.count) { frames[$0].maxX > left }
        let end = partitionPoint(frames.count) { frames[$0].x >= right }
        return first..<max(first, end)
    }
}
