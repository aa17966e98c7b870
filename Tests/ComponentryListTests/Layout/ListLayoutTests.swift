import ComponentryList
import SeededRandom
import Testing

@Suite("Layout")
struct ListLayoutTests {
    let phone = ListEnvironment(containerWidth: 320)

    func laidOut(_ sections: [LayoutSection], in environment: ListEnvironment = ListEnvironment(containerWidth: 320)) -> ListLayout {
        var layout = ListLayout()
        layout.update(sections, in: environment)
        return layout
    }

    func frames(_ layout: ListLayout) -> [ListRect] {
        (0..<layout.sectionCount).flatMap { section in
            (0..<layout.itemCount(inSection: section)).map { layout.frame(at: ItemPath(section: section, item: $0))! }
        }
    }

    @Test func gridFromInsetsSpacingColumnsAndRatio() {
        let style = ComponentLayout(
            insets: ListInsets(all: 10), lineSpacing: 10, interitemSpacing: 10, distribution: .columns(3), itemRatio: .aspect(2), headerHeight: 30)
        let layout = laidOut([LayoutSection(id: "grid", style: style, itemCount: 4)])
        let side = (300 - 20) / 3.0
        #expect(layout.frame(at: ItemPath(section: 0, item: 0)) == ListRect(x: 10, y: 40, width: side, height: side / 2))
        #expect(layout.frame(at: ItemPath(section: 0, item: 2)) == ListRect(x: 10 + 2 * (side + 10), y: 40, width: side, height: side / 2))
        #expect(layout.frame(at: ItemPath(section: 0, item: 3)) == ListRect(x: 10, y: 40 + side / 2 + 10, width: side, height: side / 2))
        #expect(layout.contentHeight == 40 + side + 10 + 10)
    }

    @Test func absoluteWidthAndFractionDecideItemsPerRow() {
        let byWidth = laidOut([LayoutSection(id: "w", style: ComponentLayout(interitemSpacing: 10, distribution: .width(100)), itemCount: 4)])
        #expect(byWidth.frame(at: ItemPath(section: 0, item: 2))?.y == 0)
        #expect(byWidth.frame(at: ItemPath(section: 0, item: 3))?.y == 44)
        let half = laidOut([LayoutSection(id: "f", style: ComponentLayout(interitemSpacing: 10, distribution: .fraction(0.5)), itemCount: 3)])
        #expect(half.frame(at: ItemPath(section: 0, item: 1)) == ListRect(x: 165, y: 0, width: 155, height: 44))
        #expect(half.frame(at: ItemPath(section: 0, item: 2))?.y == 44)
    }

    @Test func componentsStackDownTheList() {
        let layout = laidOut([
            LayoutSection(id: "a", style: ComponentLayout(footerHeight: 20), itemCount: 2),
            LayoutSection(id: "empty", itemCount: 0),
            LayoutSection(id: "b", itemCount: 1),
        ])
        #expect(layout.frame(ofSection: 2)?.y == 108)
        #expect(layout.frame(at: ItemPath(section: 2, item: 0))?.y == 108)
        #expect(layout.contentHeight == 152)
    }

    @Test func measuredSizesAreCachedByIdentityVersionAndWidthNotIndex() {
        var calls: [Int] = []
        func section(_ ids: [Int], version: Int = 0) -> LayoutSection {
            LayoutSection(
                id: "m", itemCount: ids.count,
                measure: LayoutSection.Measure(keys: ids.map { ItemKey(id: $0, version: version) }) { index, proposed in
                    calls.append(ids[index])
                    return ListSize(width: proposed.width, height: Double(ids[index]))
                })
        }
        var layout = ListLayout()
        layout.update([section([10, 20])], in: phone)
        layout.update([section([20, 30, 10])], in: phone)  // moved and inserted
        #expect(calls == [10, 20, 30])
        #expect(layout.frame(at: ItemPath(section: 0, item: 2)) == ListRect(x: 0, y: 50, width: 320, height: 10))
        layout.update([section([20], version: 1)], in: phone)  // new content
        layout.update([section([20], version: 1)], in: ListEnvironment(containerWidth: 500))
        #expect(calls == [10, 20, 30, 20, 20])
    }

    /// Laying out again from the first changed item gives the same frames as a fresh
    /// layout, for random grids of random sizes.
    @Test(arguments: 0..<100 as Range<UInt64>)
    func relayoutFromFirstChangeMatchesFullLayout(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func sections(_ heights: [[Double]]) -> [LayoutSection] {
            heights.enumerated().map { index, heights in
                let style = ComponentLayout(lineSpacing: 4, interitemSpacing: 4, distribution: .columns(1 + index % 3))
                return LayoutSection(
                    id: "s\(index)", style: style, itemCount: heights.count,
                    measure: LayoutSection.Measure(keys: heights.map { ItemKey(id: Int($0), version: 0) }) { index, proposed in
                        ListSize(width: proposed.width * 0.9, height: heights[index])
                    })
            }
        }
        var heights = (0..<4).map { _ in (0..<Int.random(in: 0..<30, using: &random)).map { _ in Double(Int.random(in: 1...500, using: &random)) } }
        var layout = laidOut(sections(heights))
        let section = Int.random(in: 0..<heights.count, using: &random)
        let item = Int.random(in: 0...heights[section].count, using: &random)
        heights[section].insert(
            contentsOf: (0..<Int.random(in: 0..<5, using: &random)).map { _ in Double(Int.random(in: 501...900, using: &random)) }, at: item)
        for later in section + 1..<heights.count { heights[later].shuffle(using: &random) }
        layout.update(sections(heights), in: phone, from: ItemPath(section: section, item: item))
        let fresh = laidOut(sections(heights))
        #expect(frames(layout) == frames(fresh))
        #expect(layout.contentHeight == fresh.contentHeight)
    }

    /// The viewport query agrees with a linear scan of every frame.
    @Test(arguments: 0..<50 as Range<UInt64>)
    func viewportQueryMatchesLinearScan(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let layout = laidOut(
            (0..<5).map { index in
                LayoutSection(
                    id: "s\(index)",
                    style: ComponentLayout(
                        insets: ListInsets(all: 8), lineSpacing: 6, distribution: .columns(1 + index), itemRatio: .aspect(Double(index + 1)),
                        headerHeight: 20),
                    arrangement: index == 2 ? .horizontal : .vertical, itemCount: Int.random(in: 0..<40, using: &random)
                )
            })
        for _ in 0..<40 {
            let top = Double.random(in: -100...layout.contentHeight + 100, using: &random)
            let viewport = top..<(top + Double.random(in: 1...400, using: &random))
            let paths = (0..<layout.sectionCount).flatMap { section in
                (0..<layout.itemCount(inSection: section)).map { ItemPath(section: section, item: $0) }
            }.filter { path in
                let frame = layout.frame(at: path)!
                return frame.maxY > viewport.lowerBound && frame.y < viewport.upperBound
            }
            let expected = paths.first.map { $0...paths.last! }
            #expect(layout.items(in: viewport) == expected, "\(viewport)")
        }
    }

    @Test func horizontalComponentIsOneScrollingRowWithOffsetKeptByIdentity() throws {
        let shelf = LayoutSection(
            id: "shelf",
            style: ComponentLayout(
                insets: ListInsets(left: 16, right: 16), interitemSpacing: 8, distribution: .fraction(0.4), itemRatio: .height(100)),
            arrangement: .horizontal, itemCount: 10
        )
        var layout = ListLayout()
        layout.update([shelf], in: phone)
        let width = (288 + 8) * 0.4 - 8
        let last = try #require(layout.frame(at: ItemPath(section: 0, item: 9)))
        #expect(abs(last.x - (16 + 9 * (width + 8))) < 1e-9 && last.width == width && last.y == 0 && last.height == 100)
        #expect(abs(layout.contentWidth(ofSection: 0) - (16 + 10 * width + 9 * 8 + 16)) < 1e-9)
        #expect(layout.frame(ofSection: 0)?.height == 100)

        layout.setScrollOffset(300, forSection: 0)
        #expect(layout.visibleItems(inSection: 0) == 2..<6)
        layout.update([LayoutSection(id: "new", itemCount: 3), shelf], in: phone)
        #expect(layout.scrollOffset(ofSection: 1) == 300)
        layout.setScrollOffset(10_000, forSection: 1)
        #expect(layout.scrollOffset(ofSection: 1) == layout.maxScrollOffset(ofSection: 1))
    }

    @Test func snappingTargetsPagesOrLeadingEdges() {
        func shelf(_ snapping: ComponentLayout.Snapping) -> ListLayout {
            laidOut([
                LayoutSection(
                    id: "shelf",
                    style: ComponentLayout(insets: ListInsets(left: 10), interitemSpacing: 10, distribution: .width(100), snapping: snapping),
                    arrangement: .horizontal, itemCount: 10
                )
            ])
        }
        let edges = shelf(.leadingEdge)  // items at 10, 120, 230, …; content 1100 wide, ends at 780
        #expect(edges.snapTargets(ofSection: 0) == [0, 110, 220, 330, 440, 550, 660, 770, 780])
        #expect(edges.snappedOffset(170, forSection: 0) == 220)
        #expect(edges.snappedOffset(-50, forSection: 0) == 0)
        let pages = shelf(.paging)
        #expect(pages.snapTargets(ofSection: 0) == [0, 320, 640, 780])
        #expect(pages.snappedOffset(700, forSection: 0) == 640)
        #expect(shelf(.none).snappedOffset(123, forSection: 0) == 123)
    }
}
