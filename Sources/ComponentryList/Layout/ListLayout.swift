/// Frames for every item of a list of components, for one container width (L5–L7).
///
/// A pure value, usable on any thread: give it the components with
/// ``update(_:in:from:)`` and ask for frames (``frame(at:)``), for what a viewport shows
/// (``items(in:)``) and for horizontal scrolling (``setScrollOffset(_:forSection:)``,
/// ``snappedOffset(_:forSection:)``).
///
/// - Vertical components flow their items into rows that wrap, each row as tall as its
///   tallest item; components stack down the list.
/// - Horizontal components lay their items out in one row as wide as its content
///   (``contentWidth(ofSection:)``) that scrolls sideways; its scroll offset is kept per
///   component identity, across updates and moves, while the component is laid out.
/// - Any input is safe, as from a browser or a server's data: lengths are clamped to
///   `0...maximumLength` (NaN as 0), so every frame is finite; a section or path that
///   does not exist (a stale one) reads as empty and a scroll of it is ignored.
/// - Items of a section without a ``LayoutSection/measure`` are computed from the
///   style, without caching or hashing, so a plain grid costs a few nanoseconds per
///   item. Measured items are cached by (identity, content version, proposed size),
///   never by index; the cache keeps what the current sections and width can use, and
///   is pruned to that when it holds twice as many sizes (so it never holds more than
///   twice the measured items of the last update).
/// - After a change, ``update(_:in:from:)`` keeps everything before the first changed
///   item and lays out from the start of its row.
///
/// Frames are in list coordinates: x from the container's left edge, y from the top of
/// the list. Items of horizontal components have x in their row's content, before
/// scrolling.
public struct ListLayout: Sendable {
    /// The environment of the last update.
    public private(set) var environment = ListEnvironment()
    /// The height of the whole list.
    public private(set) var contentHeight: Double = 0

    var sections: [SectionFrames] = []
    var origins: [Double] = []
    var sizeCache: [SizeKey: ListSize?] = [:]
    var scrollOffsets: [String: Double] = [:]

    /// The longest length, in points, that the layout uses: longer widths, heights,
    /// insets and spacings are clamped to it.
    public static let maximumLength = 1e9

    /// The most snap targets a paging component has: a page is the container's width,
    /// or wider when more pages than this would cover the row.
    public static let maximumSnapTargets = 1 << 16

    /// `value` clamped to `0...maximumLength`, NaN as 0.
    static func clampedLength(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), maximumLength)
    }

    /// An empty layout.
    public init() {}

    /// The frames of one component, relative to the top of the component.
    struct SectionFrames: Sendable {
        var id: String
        var style: ComponentLayout
        var arrangement: Arrangement
        var frames: [ListRect] = []
        /// The first item of each row, and the row's top and bottom.
        var rowStarts: [Int] = []
        var rowTops: [Double] = []
        var rowBottoms: [Double] = []
        var height: Double = 0
        var contentWidth: Double = 0
    }

    /// A measured size is valid for this item content in this component at this
    /// proposed size (which follows from the container width and the style).
    struct SizeKey: Hashable {
        var section: Int
        var item: ItemKey
        var proposed: ListSize
    }

    /// The number of components laid out.
    public var sectionCount: Int { sections.count }

    /// Lays `sections` out in `environment`.
    ///
    /// Everything before `first` — components before its section, rows before the row
    /// holding its item — must be as in the previous update, and is kept; the rest is laid
    /// out again. A new environment lays everything out. The default lays out all.
    public mutating func update(_ sections: [LayoutSection], in environment: ListEnvironment, from first: ItemPath = ItemPath(section: 0, item: 0)) {
        var first = ItemPath(section: max(first.section, 0), item: max(first.item, 0))
        if environment != self.environment {
            self.environment = environment
            first = ItemPath(section: 0, item: 0)
        }
        let start = min(first.section, self.sections.count, sections.count)
        if start < self.sections.count {
            let keep =
                start == first.section && sections[start].id == self.sections[start].id
                && sections[start].style == self.sections[start].style
                && sections[start].arrangement == self.sections[start].arrangement
            self.sections.removeSubrange((keep ? start + 1 : start)...)
        }
        origins.removeSubrange(min(start, origins.count)...)
        for index in start..<sections.count {
            if index < self.sections.count {
                self.sections[index].layOut(sections[index], from: first.item, in: environment, cache: &sizeCache)
            } else {
                var frames = SectionFrames(id: sections[index].id, style: sections[index].style, arrangement: sections[index].arrangement)
                frames.layOut(sections[index], from: 0, in: environment, cache: &sizeCache)
                self.sections.append(frames)
            }
            origins.append(index == 0 ? 0 : origins[index - 1] + self.sections[index - 1].height)
        }
        contentHeight = (origins.last ?? 0) + (self.sections.last?.height ?? 0)
        pruneSizeCache(sections)
        if !scrollOffsets.isEmpty {
            let ids = Set(self.sections.map(\.id))
            scrollOffsets = scrollOffsets.filter { ids.contains($0.key) }
        }
    }

    /// Keeps only the sizes `sections` can use, once the cache holds more than twice
    /// as many: rebuilding costs one lookup per measured item, paid for by the entries
    /// added since the last rebuild.
    private mutating func pruneSizeCache(_ sections: [LayoutSection]) {
        var usable = 0
        for section in sections {
            if let measure = section.measure { usable += min(max(section.itemCount, 0), measure.keys.count) }
        }
        guard sizeCache.count > 2 * usable else { return }
        var kept: [SizeKey: ListSize?] = Dictionary(minimumCapacity: usable)
        for section in sections {
            guard let measure = section.measure else { continue }
            let sectionKey = section.id.hashValue
            let proposed = section.style.itemSize(in: environment)
            for item in measure.keys.prefix(max(section.itemCount, 0)) {
                let key = SizeKey(section: sectionKey, item: item, proposed: proposed)
                if let size = sizeCache[key] { kept[key] = size }
            }
        }
        sizeCache = kept
    }

    /// Forgets every measured size; they are measured again when next needed.
    public mutating func removeCachedSizes() {
        sizeCache.removeAll()
    }

    // MARK: Frames

    /// The frame of the item at `path`, in list coordinates; `nil` when there is no
    /// such item.
    public func frame(at path: ItemPath) -> ListRect? {
        guard sections.indices.contains(path.section), sections[path.section].frames.indices.contains(path.item) else { return nil }
        return sections[path.section].frames[path.item].offsetBy(dy: origins[path.section])
    }

    /// The frame of the component at `section`: full container width, header to footer;
    /// `nil` when there is no such component.
    public func frame(ofSection section: Int) -> ListRect? {
        guard sections.indices.contains(section) else { return nil }
        return ListRect(x: 0, y: origins[section], width: environment.containerWidth, height: sections[section].height)
    }

    /// The number of items laid out in `section`; 0 when there is no such component.
    public func itemCount(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].frames.count : 0
    }
}

extension ListLayout.SectionFrames {
    /// Lays `section` out, keeping the rows before the one holding `item`.
    mutating func layOut(
        _ section: LayoutSection, from item: Int, in environment: ListEnvironment,
        cache sizeCache: inout [ListLayout.SizeKey: ListSize?]
    ) {
        let style = section.style.clamped
        let itemCount = max(section.itemCount, 0)
        var row = section.arrangement == .vertical ? rowIndex(of: item) : 0
        if row < rowStarts.count, rowStarts[row] > itemCount { row = 0 }  // fewer items than kept
        let top = row < rowTops.count ? rowTops[row] : style.headerHeight + style.insets.top
        frames.removeSubrange((row < rowStarts.count ? rowStarts[row] : 0)...)
        rowStarts.removeSubrange(row...)
        rowTops.removeSubrange(row...)
        rowBottoms.removeSubrange(row...)
        frames.reserveCapacity(itemCount)

        let proposed = style.itemSize(in: environment)
        let left = style.insets.left
        let limit = section.arrangement == .vertical ? left + style.rowWidth(in: environment) * (1 + 1e-9) : .infinity
        let sectionKey = section.id.hashValue
        var x = left
        var y = top
        var rowHeight = 0.0
        var rowStart = frames.count
        for index in frames.count..<itemCount {
            var size = proposed
            if let measure = section.measure {
                if index < measure.keys.count {
                    let key = ListLayout.SizeKey(section: sectionKey, item: measure.keys[index], proposed: proposed)
                    if let cached = sizeCache[key] {
                        size = cached ?? proposed
                    } else {
                        let measured = measure.size(index, proposed)?.clamped
                        sizeCache[key] = measured
                        size = measured ?? proposed
                    }
                } else {
                    size = measure.size(index, proposed)?.clamped ?? proposed  // no key: not cached
                }
            }
            if section.arrangement == .vertical { size.width = min(size.width, limit - left) }
            if index > rowStart, x + size.width > limit {
                closeRow(start: rowStart, top: y, height: rowHeight)
                y += rowHeight + style.lineSpacing
                x = left
                rowHeight = 0
                rowStart = index
            }
            frames.append(ListRect(x: x, y: y, width: size.width, height: size.height))
            x += size.width + style.interitemSpacing
            rowHeight = max(rowHeight, size.height)
        }
        if rowStart < itemCount { closeRow(start: rowStart, top: y, height: rowHeight) }
        let itemsBottom = rowBottoms.last ?? style.headerHeight + style.insets.top
        height = itemsBottom + style.insets.bottom + style.footerHeight
        contentWidth = itemCount == 0 ? left + style.insets.right : x - style.interitemSpacing + style.insets.right
    }

    /// The row that holds `item`; the last row for items past the end (it may fill up).
    func rowIndex(of item: Int) -> Int {
        var low = 0
        var high = rowStarts.count  // rowStarts[low] <= item < rowStarts[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if rowStarts[middle] <= item { low = middle } else { high = middle }
        }
        return low
    }

    mutating func closeRow(start: Int, top: Double, height: Double) {
        rowStarts.append(start)
        rowTops.append(top)
        rowBottoms.append(top + height)
    }
}
