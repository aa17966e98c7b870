import Testing

@testable import ComponentryList

/// A layout lives as long as a dashboard tab: what it keeps must not grow with the number
/// of updates, only with what the current components and width can use.
@Suite("Layout bounds")
struct ListLayoutBoundsTests {
    /// A measured component of `ids`, every item at content `version`.
    func measured(_ id: String, _ ids: [Int], version: Int) -> LayoutSection {
        LayoutSection(
            id: id, itemCount: ids.count,
            measure: LayoutSection.Measure(keys: ids.map { ItemKey(id: $0, version: version) }) { index, proposed in
                ListSize(width: proposed.width, height: Double(10 + ids[index] % 7))
            })
    }

    /// Items come and go, their content changes, the width changes now and then: the
    /// cache never holds more than twice the measured items shown.
    @Test func measuredSizesStayBoundedOverManyUpdates() {
        var layout = ListLayout()
        var largest = 0
        for round in 0..<100_000 {
            let ids = Array(round..<(round + 8))  // one item leaves, one arrives
            let width = 320 + Double(round / 1_000 % 5) * 100
            layout.update(
                [measured("a", ids, version: round % 3), measured("b", [round], version: round)], in: ListEnvironment(containerWidth: width))
            largest = max(largest, layout.sizeCache.count)
        }
        #expect(largest <= 2 * 9)
    }

    /// A measured size is still reused for every item shown, after any number of
    /// unrelated updates (pruning keeps what the current list uses).
    @Test func pruningKeepsTheSizesOfItemsStillShown() {
        var calls = 0
        func section(_ ids: [Int]) -> LayoutSection {
            LayoutSection(
                id: "m", itemCount: ids.count,
                measure: LayoutSection.Measure(keys: ids.map { ItemKey(id: $0, version: 0) }) { _, proposed in
                    calls += 1
                    return proposed
                })
        }
        var layout = ListLayout()
        let environment = ListEnvironment(containerWidth: 320)
        for round in 0..<1_000 { layout.update([section([-1, -2, round])], in: environment) }
        #expect(calls == 1_002)  // -1 and -2 measured once
    }

    /// Horizontal components come and go with new ids: offsets are kept only for the
    /// components laid out.
    @Test func scrollOffsetsStayBoundedOverManyUpdates() {
        var layout = ListLayout()
        let environment = ListEnvironment(containerWidth: 320)
        var largest = 0
        for round in 0..<100_000 {
            let shelf = LayoutSection(
                id: "shelf-\(round % 50_000)", style: ComponentLayout(distribution: .width(200)), arrangement: .horizontal, itemCount: 4)
            layout.update([LayoutSection(id: "list", itemCount: 3), shelf], in: environment)
            layout.setScrollOffset(Double(round % 400), forSection: 1)
            largest = max(largest, layout.scrollOffsets.count)
        }
        #expect(largest <= 1)
    }

    @Test func theOffsetOfAComponentThatLeftIsForgotten() {
        let shelf = LayoutSection(id: "shelf", style: ComponentLayout(distribution: .width(200)), arrangement: .horizontal, itemCount: 4)
        let environment = ListEnvironment(containerWidth: 320)
        var layout = ListLayout()
        layout.update([shelf], in: environment)
        layout.setScrollOffset(100, forSection: 0)
        layout.update([LayoutSection(id: "other", itemCount: 1)], in: environment)
        layout.update([shelf], in: environment)
        #expect(layout.scrollOffset(ofSection: 0) == 0)
    }
}
