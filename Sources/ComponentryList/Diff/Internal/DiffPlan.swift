/// The non-generic half of the diff: from the matches of sections and of the items not
/// paired in order (``Unpaired``), which sections and items to delete, move and insert,
/// and every index of the ordered batch.
///
/// Items paired in order (a trimmed prefix or suffix, a run of ``OrderedMatch``) stay
/// and are never listed: every step here costs what the unpaired items cost. Items of
/// deleted or inserted sections travel with their section and are never matched.
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

    /// The plan for `sections` matched by position, and the `old` and `new` unpaired
    /// items matched by their positions in `items`. `ordered[s]` says that new section
    /// `s` was paired in order (by a trim or ``OrderedMatch``), so that its pairs are a
    /// longest run in order and its unpaired survivors must all move.
    @usableFromInline
    init(sections: HeckelMatch, items: HeckelMatch, old: Unpaired, new: Unpaired, ordered: [Bool]) {
        for section in sections.oldToNew.indices.reversed() {
            for position in old.ranges[section].reversed() where items.oldToNew[position] < 0 {
                deletedItems.append(old.paths[position])
            }
        }
        for index in sections.oldToNew.indices.reversed() where sections.oldToNew[index] < 0 {
            deletedSections.append(index)
        }
        sectionMoves = Self.moves(sections)
        for index in sections.newToOld.indices where sections.newToOld[index] < 0 {
            insertedSections.append(index)
        }
        itemMoves = Self.moves(sections, items, old, new, ordered: ordered)
        for section in sections.newToOld.indices {
            for position in new.ranges[section] where items.newToOld[position] < 0 {
                insertedItems.append(new.paths[position])
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

    /// A moving item at one place: in `section` (new index), after `gap` staying items.
    struct Place {
        var section: Int
        var gap: Int
        /// The item's position among the new unpaired items.
        var item: Int
    }

    /// The fewest sequential item moves once sections are in final order.
    ///
    /// Items that change section must move. In a section paired in order, every other
    /// unpaired survivor moves too; in another, a longest run of them increasing in
    /// final order stays. The movers are placed in final order, each right after its
    /// final predecessor. Only movers get a slot: an index is the staying items before
    /// the mover (its gap) plus the occupied slots before it in its section, which a
    /// Fenwick tree gives in O(log movers).
    static func moves(_ sections: HeckelMatch, _ items: HeckelMatch, _ old: Unpaired, _ new: Unpaired, ordered: [Bool]) -> [(
        from: ItemPath, to: ItemPath
    )] {
        let sectionCount = sections.newToOld.count
        var staying = [Bool](repeating: false, count: new.count)  // by new position
        var candidates: [Int] = []
        for section in 0..<sectionCount where sections.newToOld[section] >= 0 && !ordered[section] {
            let keeps = new.ranges[section]
            let range = old.ranges[sections.newToOld[section]]
            candidates.removeAll(keepingCapacity: true)
            candidates.reserveCapacity(range.count)
            for position in range where keeps.contains(items.oldToNew[position]) {
                candidates.append(items.oldToNew[position])
            }
            for (index, kept) in longestIncreasingSubsequence(candidates).enumerated() where kept {
                staying[candidates[index]] = true
            }
        }

        // The movers where they are now (sections in final order, items in old order)
        // and where they go. Before an unpaired item at position p of a section's range
        // r, `item - (p - r.lowerBound)` items are paired in order, and they stay.
        var now: [Place] = []
        var final: [Place] = []
        var nowIndex = [Int](repeating: -1, count: new.count)
        for section in 0..<sectionCount where sections.newToOld[section] >= 0 {
            let range = old.ranges[sections.newToOld[section]]
            var stayingBefore = 0
            for position in range where items.oldToNew[position] >= 0 {
                let partner = items.oldToNew[position]
                if staying[partner] {
                    stayingBefore += 1
                } else {
                    nowIndex[partner] = now.count
                    now.append(Place(section: section, gap: old.paths[position].item - (position - range.lowerBound) + stayingBefore, item: partner))
                }
            }
        }
        guard !now.isEmpty else { return [] }
        for section in 0..<sectionCount where sections.newToOld[section] >= 0 {
            let range = new.ranges[section]
            var stayingBefore = 0
            for position in range where items.newToOld[position] >= 0 {
                if staying[position] {
                    stayingBefore += 1
                } else {
                    final.append(
                        Place(section: section, gap: new.paths[position].item - (position - range.lowerBound) + stayingBefore, item: position))
                }
            }
        }

        // Slots in list order: per section and gap, the final places (in final order),
        // then the places now (in current order). Both lists are in that order already.
        var sectionStart = [Int](repeating: 0, count: sectionCount + 1)
        for place in now { sectionStart[place.section + 1] += 1 }
        for place in final { sectionStart[place.section + 1] += 1 }
        for section in 0..<sectionCount { sectionStart[section + 1] += sectionStart[section] }
        var nowSlot = [Int](repeating: 0, count: now.count)
        var finalSlot = nowSlot
        var occupied: [Bool] = []
        occupied.reserveCapacity(2 * now.count)
        var nextNow = 0
        var nextFinal = 0
        while nextNow < now.count || nextFinal < final.count {
            if nextFinal < final.count,
                nextNow == now.count
                    || (final[nextFinal].section, final[nextFinal].gap) <= (now[nextNow].section, now[nextNow].gap)
            {
                finalSlot[nextFinal] = occupied.count
                occupied.append(false)
                nextFinal += 1
            } else {
                nowSlot[nextNow] = occupied.count
                occupied.append(true)
                nextNow += 1
            }
        }

        var slots = FenwickTree(occupied: occupied)
        var moves: [(from: ItemPath, to: ItemPath)] = []
        moves.reserveCapacity(final.count)
        for (index, target) in final.enumerated() {
            let from = nowIndex[target.item]
            let source = now[from]
            let fromItem = source.gap + slots.prefixSum(nowSlot[from]) - slots.prefixSum(sectionStart[source.section])
            slots.add(-1, at: nowSlot[from])
            let toItem = target.gap + slots.prefixSum(finalSlot[index]) - slots.prefixSum(sectionStart[target.section])
            slots.add(1, at: finalSlot[index])
            moves.append((ItemPath(section: source.section, item: fromItem), ItemPath(section: target.section, item: toItem)))
        }
        return moves
    }
}
