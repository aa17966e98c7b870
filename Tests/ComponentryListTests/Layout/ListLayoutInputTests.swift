import ComponentryList
import SeededRandom
import Testing

/// Widths, styles, measured sizes and sections can come from a browser or a server's
/// data: no value traps, and lengths stay finite.
@Suite("Layout input")
struct ListLayoutInputTests {
    static let extremes: [Double] = [.nan, .infinity, -.infinity, -1, 0, 1e-300, .leastNonzeroMagnitude, 1e300, .greatestFiniteMagnitude]

    /// An extreme value half the time, a plain one otherwise.
    static func length(_ random: inout SplitMix64) -> Double {
        Bool.random(using: &random) ? extremes.randomElement(using: &random)! : Double(Int.random(in: 0...200, using: &random))
    }

    static func style(_ random: inout SplitMix64) -> ComponentLayout {
        let distribution: ComponentLayout.Distribution =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: .columns([Int.min, -1, 0, 1, 3, Int.max].randomElement(using: &random)!)
            case 1: .width(length(&random))
            default: .fraction(length(&random))
            }
        return ComponentLayout(
            insets: ListInsets(top: length(&random), left: length(&random), bottom: length(&random), right: length(&random)),
            lineSpacing: length(&random), interitemSpacing: length(&random), distribution: distribution,
            itemRatio: Bool.random(using: &random) ? .aspect(length(&random)) : .height(length(&random)),
            headerHeight: length(&random), footerHeight: length(&random),
            snapping: [.none, .paging, .leadingEdge].randomElement(using: &random)!
        )
    }

    @Test(arguments: 0..<300 as Range<UInt64>)
    func anyInputLaysOutFinitely(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let sections = (0..<Int.random(in: 0...4, using: &random)).map { index in
            let count = Int.random(in: -3...30, using: &random)
            let sizes = (0..<max(count, 0)).map { _ in ListSize(width: Self.length(&random), height: Self.length(&random)) }
            let keyCount = Int.random(in: 0...max(count, 0), using: &random)  // possibly too few keys
            return LayoutSection(
                id: "s\(index)", style: Self.style(&random), arrangement: Bool.random(using: &random) ? .horizontal : .vertical,
                itemCount: count,
                measure: Bool.random(using: &random)
                    ? nil : LayoutSection.Measure(keys: (0..<keyCount).map { ItemKey(id: $0, version: 0) }) { index, _ in sizes[index] }
            )
        }
        var layout = ListLayout()
        layout.update(
            sections, in: ListEnvironment(containerWidth: Self.length(&random)),
            from: ItemPath(section: Int.random(in: -2...2, using: &random), item: -1))
        #expect(layout.contentHeight.isFinite && layout.contentHeight >= 0)
        for section in -1...(layout.sectionCount) {
            for item in -1...(layout.itemCount(inSection: section)) {
                if let frame = layout.frame(at: ItemPath(section: section, item: item)) {
                    #expect([frame.x, frame.y, frame.width, frame.height].allSatisfy { $0.isFinite }, "\(frame)")
                }
            }
            layout.setScrollOffset(Self.length(&random), forSection: section)
            let offset = layout.scrollOffset(ofSection: section)
            #expect(offset.isFinite && offset >= 0 && offset <= layout.maxScrollOffset(ofSection: section))
            let targets = layout.snapTargets(ofSection: section)
            #expect(targets.count <= ListLayout.maximumSnapTargets)
            #expect(targets.allSatisfy { $0.isFinite })
            #expect(layout.snappedOffset(Self.length(&random), forSection: section).isFinite)
            #expect(layout.contentWidth(ofSection: section).isFinite)
            _ = layout.visibleItems(inSection: section)
            _ = layout.frame(ofSection: section)
        }
        let top = Double.random(in: -1e300...1e300, using: &random)
        _ = layout.items(in: top..<(top + Double.random(in: 0...1e300, using: &random)))
    }

    /// A browser reporting a scroll for a component that has since gone (a stale
    /// section) changes nothing; queries of it read as empty.
    @Test func staleSectionsReadAsEmptyAndScrollsAreIgnored() {
        var layout = ListLayout()
        layout.update(
            [LayoutSection(id: "shelf", style: ComponentLayout(distribution: .width(200)), arrangement: .horizontal, itemCount: 4)],
            in: ListEnvironment(containerWidth: 320))
        for section in [-1, 1, Int.max] {
            layout.setScrollOffset(100, forSection: section)
            #expect(layout.scrollOffset(ofSection: section) == 0)
            #expect(layout.snapTargets(ofSection: section).isEmpty)
            #expect(layout.snappedOffset(100, forSection: section) == 0)
            #expect(layout.visibleItems(inSection: section).isEmpty)
            #expect(layout.itemCount(inSection: section) == 0)
            #expect(layout.frame(ofSection: section) == nil)
            #expect(layout.frame(at: ItemPath(section: section, item: 0)) == nil)
        }
        #expect(layout.scrollOffset(ofSection: 0) == 0)
        #expect(layout.frame(at: ItemPath(section: 0, item: 4)) == nil)
    }

    /// A container a fraction of a point wide pages a 1,000-item row in at most
    /// ``ListLayout/maximumSnapTargets`` steps instead of billions.
    @Test func pagingTargetsAreBounded() {
        var layout = ListLayout()
        let row = LayoutSection(
            id: "row", style: ComponentLayout(distribution: .width(1_000), snapping: .paging), arrangement: .horizontal, itemCount: 1_000)
        layout.update([row], in: ListEnvironment(containerWidth: 1e-3))
        let targets = layout.snapTargets(ofSection: 0)
        #expect(targets.count <= ListLayout.maximumSnapTargets)
        #expect(targets.first == 0 && targets.last == layout.maxScrollOffset(ofSection: 0))
        #expect(targets == targets.sorted())
    }

    @Test func theEnvironmentWidthIsNeverNaNOrNegative() {
        #expect(ListEnvironment(containerWidth: .nan) == ListEnvironment(containerWidth: 0))
        #expect(ListEnvironment(containerWidth: -5).containerWidth == 0)
        var environment = ListEnvironment()
        environment.containerWidth = .infinity
        #expect(environment.containerWidth == ListLayout.maximumLength)
    }
}
