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
///   component identity, across updates and moves.
/// - Items that do not size themselves are computed from the style, without caching or
///   hashing, so a plain grid costs a few nanoseconds per item. Measured items are cached
///   by (identity, content version, proposed size), never by index.
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
        var first = first
        if environment != self.environment {
            self.environment = environment
            first = ItemPath(section: 0, item: 0)
        }
        let start = min(first.section, self.sections.count, sections.count)
        if start < self.sections.count {
            let keep = start == first.section && sections[start].id == self.sections[start].id
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
    }

    /// Forgets every measured size; they are measured again when next needed.
    public mutating func removeCachedSizes() {
        sizeCache.removeAll()
    }

    // MARK: Frames

    /// The frame of the item at `path`, in list coordinates.
    public func frame(at path: ItemPath) -> ListRect {
        sections[path.section].frames[path.item].offsetBy(dy: origins[path.section])
    }

    /// The frame of the component at `section`: full container width, header to footer.
    public func frame(ofSection section: Int) -> ListRect {
        ListRect(x: 0, y: origins[section], width: environment.containerWidth, height: sections[section].height)
    }

    /// The number of items laid out in `section`.
    public func itemCount(inSection section: Int) -> Int {
        sections[section].frames.count
    }
}

extension ListLayout.SectionFrames {
    /// Lays `section` out, keeping the rows before the one holding `item`.
    mutating func layOut(
        _ section: LayoutSection, from item: Int, in environment: ListEnvironment,
        cache sizeCache: inout [ListLayout.SizeKey: ListSize?]
    ) {
        let style = section.style
        var row = section.arrangement == .vertical ? rowIndex(of: item) : 0
        if row < rowStarts.count, rowStarts[row] > section.itemCount { row = 0 }  // fewer items than kept
        let top = row < rowTops.count ? rowTops[row] : style.headerHeight + style.insets.top
        frames.removeSubrange((row < rowStarts.count ? rowStarts[row] : 0)...)
        rowStarts.removeSubrange(row...)
        rowTops.removeSubrange(row...)
        rowBottoms.removeSubrange(row...)
        frames.reserveCapacity(section.itemCount)

        let proposed = style.itemSize(in: environment)
        let left = style.insets.left
        let limit = section.arrangement == .vertical ? left + style.rowWidth(in: environment) * (1 + 1e-9) : .infinity
        let sectionKey = section.id.hashValue
        var x = left, y = top, rowHeight = 0.0, rowStart = frames.count
        for index in frames.count..<section.itemCount {
            var size = proposed
            if let measure = section.measure {
                let key = ListLayout.SizeKey(section: sectionKey, item: measure.keys[index], proposed: proposed)
                if let cached = sizeCache[key] {
                    size = cached ?? proposed
                } else {
                    let measured = measure.size(index, proposed)
                    sizeCache[key] = measured
                    size = measured ?? proposed
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
        if rowStart < section.itemCount { closeRow(start: rowStart, top: y, height: rowHeight) }
        let itemsBottom = rowBottoms.last ?? style.headerHeight + style.insets.top
        height = itemsBottom + style.insets.bottom + style.footerHeight
        contentWidth = section.itemCount == 0 ? left + style.insets.right : x - style.interitemSpacing + style.insets.right
    }

    /// The row that holds `item`; the last row for items past the end (it may fill up).
    func rowIndex(of item: Int) -> Int {
        var low = 0, high = rowStarts.count   // rowStarts[low] <= item < rowStarts[high]
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
