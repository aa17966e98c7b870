/// The non-generic half of the diff: from the matches of sections and of the untrimmed
/// items ("middles"), which sections and items to delete, move and insert, and every
/// index of the ordered batch.
///
/// Middle items are numbered in list order (see ``Middles``). Items of deleted or
/// inserted sections travel with their section and are never matched.
@usableFromInline
struct DiffPlan {
    /// Old paths of removed items, last first.
    @usableFromInline var deletedItems: [ItemPath] = []
    /// Old indices of removed sections, last first.
    @usableFromInline var deletedSections: [Int] = []
    /// Sequential section moves.
    @usableFromInline var sectionMoves: [(from: Int, to: Int)] = []
    /// New indices of inserted sections, first first.
    @usableFromInline var insertedSections: [Int] = []
    /// Sequential item moves, at the paths of the moment.
    @usableFromInline var itemMoves: [(from: ItemPath, to: ItemPath)] = []
    /// New paths of inserted items, first first.
    @usableFromInline var insertedItems: [ItemPath] = []

    @usableFromInline
    init(sections: HeckelMatch, items: HeckelMatch, old: Middles, new: Middles) {
        for section in sections.oldToNew.indices.reversed() {
            for index in old.indices(of: section).reversed() where items.oldToNew[index] < 0 {
                deletedItems.append(old.path(of: index, in: section))
            }
        }
        for index in sections.oldToNew.indices.reversed() where sections.oldToNew[index] < 0 {
            deletedSections.append(index)
        }
        sectionMoves = Self.moves(sections)
        for index in sections.newToOld.indices where sections.newToOld[index] < 0 {
            insertedSections.append(index)
        }
        itemMoves = Self.moves(sections, items, old, new)
        for section in sections.newToOld.indices {
            for index in new.indices(of: section) where items.newToOld[index] < 0 {
                insertedItems.append(new.path(of: index, in: section))
            }
        }
    }

    /// The fewest sequential moves that order the surviving sections: all but a longest
    /// increasing run stay; the others are placed, in final order, after their
    /// predecessor. Sections are few, so positions are found by scanning.
    static func moves(_ sections: HeckelMatch) -> [(from: Int, to: Int)] {
        var current = sections.oldToNew.filter { $0 >= 0 }
        let kept = longestIncreasingSubsequence(current)
        guard kept.contains(false) else { return [] }
        let moving = Set(current.indices.filter { !kept[$0] }.map { current[$0] })
        var moves: [(from: Int, to: Int)] = []
        for target in current.sorted() where moving.contains(target) {
            let from = current.firstIndex(of: target)!
            current.remove(at: from)
            let to = current.lastIndex { $0 < target }.map { $0 + 1 } ?? 0
            current.insert(target, at: to)
            moves.append((from, to))
        }
        return moves
    }

    /// The fewest sequential item moves once sections are in final order.
    ///
    /// Survivors (matched middle items) are listed as they are now: sections in final
    /// order, items in old order. Those that change section must move; of the rest, a
    /// longest run increasing in final order stays. The movers are placed in final order,
    /// each right after its final predecessor; a Fenwick tree over precomputed slots gives
    /// every current index in O(log n).
    static func moves(_ sections: HeckelMatch, _ items: HeckelMatch, _ old: Middles, _ new: Middles) -> [(from: ItemPath, to: ItemPath)] {
        let sectionCount = sections.newToOld.count

        // Survivors as they are now, and which of them may stay.
        var current: [Int] = []           // new middle index of each survivor
        var currentSection: [Int] = []
        var candidates: [Int] = []        // survivors that keep their section
        // Reserved: growing these arrays of every survivor doubled the time of a swap in
        // 10k (1,150 against 560 µs).
        current.reserveCapacity(new.count)
        currentSection.reserveCapacity(new.count)
        candidates.reserveCapacity(new.count)
        for section in 0..<sectionCount where sections.newToOld[section] >= 0 {
            let staying = new.indices(of: section)
            for oldIndex in old.indices(of: sections.newToOld[section]) {
                let newIndex = items.oldToNew[oldIndex]
                guard newIndex >= 0 else { continue }
                current.append(newIndex)
                currentSection.append(section)
                if staying.contains(newIndex) { candidates.append(newIndex) }
            }
        }
        var stable = [Bool](repeating: false, count: new.count)
        var stableCount = 0
        for (index, kept) in longestIncreasingSubsequence(candidates).enumerated() where kept {
            stable[candidates[index]] = true
            stableCount += 1
        }
        guard stableCount < current.count else { return [] }

        // Slots, per section: before each stable item, the destinations of the movers
        // that end up right after the previous stable item, then the current places of
        // the movers that sit there now.
        var sectionStart = [Int](repeating: 0, count: sectionCount)
        var currentSlot = [Int](repeating: -1, count: new.count)
        var finalSlot = [Int](repeating: -1, count: new.count)
        var occupied: [Bool] = []
        occupied.reserveCapacity(2 * new.count)
        var cursor = 0
        for section in 0..<sectionCount {
            sectionStart[section] = occupied.count
            guard sections.newToOld[section] >= 0 else { continue }
            var final = new.starts[section]
            while true {
                while final < new.starts[section + 1], !stable[final] {
                    if items.newToOld[final] >= 0 {
                        finalSlot[final] = occupied.count
                        occupied.append(false)
                    }
                    final += 1
                }
                while cursor < current.count, currentSection[cursor] == section, !stable[current[cursor]] {
                    currentSlot[current[cursor]] = occupied.count
                    occupied.append(true)
                    cursor += 1
                }
                guard final < new.starts[section + 1] else { break }
                assert(current[cursor] == final, "stable items keep their order")
                currentSlot[final] = occupied.count    // the stable item, both now and at the end
                occupied.append(true)
                cursor += 1
                final += 1
            }
        }
        var sectionOf = [Int](repeating: 0, count: new.count)
        for (index, newIndex) in current.enumerated() { sectionOf[newIndex] = currentSection[index] }

        var slots = FenwickTree(occupied: occupied)
        var moves: [(from: ItemPath, to: ItemPath)] = []
        moves.reserveCapacity(current.count - stableCount)
        for to in 0..<sectionCount {
            for newIndex in new.indices(of: to) where items.newToOld[newIndex] >= 0 && !stable[newIndex] {
                let from = sectionOf[newIndex]
                let fromItem = new.offsets[from] + slots.prefixSum(currentSlot[newIndex]) - slots.prefixSum(sectionStart[from])
                slots.add(-1, at: currentSlot[newIndex])
                let toItem = new.offsets[to] + slots.prefixSum(finalSlot[newIndex]) - slots.prefixSum(sectionStart[to])
                slots.add(1, at: finalSlot[newIndex])
                moves.append((ItemPath(section: from, item: fromItem), ItemPath(section: to, item: toItem)))
            }
        }
        return moves
    }
}
