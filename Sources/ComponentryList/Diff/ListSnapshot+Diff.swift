extension ListSnapshot {
    /// The ordered batch of changes that turns this snapshot into `new`.
    ///
    /// Applying the result to this snapshot with ``apply(_:)`` gives `new`. The batch
    /// is ordered and safe to replay as is; ``ListChange`` lists the order.
    ///
    /// How: sections are matched by id. In each pair of matched sections the common
    /// prefix and suffix of items are trimmed, which makes appends and unchanged lists
    /// linear scans. Where the rest of a pair differs by a few insertions and deletions
    /// (a swap, a move, a short reversal), it is paired in order by comparing ids, so the
    /// run between the edits is never hashed. The items still unpaired, of all
    /// sections, are matched by id with Heckel's linear algorithm, so an item may move
    /// between sections. Moves are the fewest possible: every item that keeps its
    /// section and lies on a longest run still in order stays, so a swap of two items
    /// is 2 moves. A matched item whose value changed becomes a
    /// ``ListChange/reconfigureItem(_:at:)``. Items of a deleted or inserted section
    /// leave or arrive with it.
    ///
    /// Cost: O(n) for the scans plus O(m log m) for the m items not paired in order;
    /// each of those identities is hashed once.
    @inlinable
    public func changes(to new: Self) -> [ListChange<Section, Item>] {
        let old = self
        let sectionMatch = Self.matchSections(old.sections, new.sections)

        // Pair each matched section's items in order where they can be; the rest are
        // hashed into symbols and matched by Heckel's passes, across sections.
        var updated: [ItemPath] = []
        var oldUnpaired = Unpaired(sectionCount: old.sections.count)
        var newUnpaired = Unpaired(sectionCount: new.sections.count)
        var ordered = [Bool](repeating: true, count: new.sections.count)
        for section in new.sections.indices where sectionMatch.newToOld[section] >= 0 {
            let from = sectionMatch.newToOld[section]
            ordered[section] = Self.pair(
                old.sections[from].items, new.sections[section].items, from: from, to: section,
                &oldUnpaired, &newUnpaired, updated: &updated
            )
        }
        // Room for every old id and some new ones, without doubling.
        var symbols = SymbolTable<Item.ID>(capacity: (oldUnpaired.count + newUnpaired.count) * 5 / 8)
        let oldSymbols = Self.symbols(old, oldUnpaired, &symbols)
        let newSymbols = Self.symbols(new, newUnpaired, &symbols)
        let itemMatch = HeckelMatch(old: oldSymbols, new: newSymbols, symbolCount: symbols.count)
        for (position, partner) in itemMatch.newToOld.enumerated() where partner >= 0 {
            let path = newUnpaired.paths[position]
            if old[oldUnpaired.paths[partner]] != new[path] { updated.append(path) }
        }

        let plan = DiffPlan(sections: sectionMatch, items: itemMatch, old: oldUnpaired, new: newUnpaired, ordered: ordered)
        var changes: [ListChange<Section, Item>] = []
        changes.reserveCapacity(plan.deletedItems.count + plan.itemMoves.count + plan.insertedItems.count + updated.count)
        for path in plan.deletedItems { changes.append(.deleteItem(at: path)) }
        for index in plan.deletedSections { changes.append(.deleteSection(at: index)) }
        for move in plan.sectionMoves { changes.append(.moveSection(from: move.from, to: move.to)) }
        for index in plan.insertedSections { changes.append(.insertSection(new.sections[index], at: index)) }
        for move in plan.itemMoves { changes.append(.moveItem(from: move.from, to: move.to)) }
        for path in plan.insertedItems { changes.append(.insertItem(new[path], at: path)) }
        for path in updated.sorted() { changes.append(.reconfigureItem(new[path], at: path)) }
        for (index, section) in new.sections.enumerated() where sectionMatch.newToOld[index] >= 0 {
            if old.sections[sectionMatch.newToOld[index]].model != section.model {
                changes.append(.reconfigureSection(section.model, at: index))
            }
        }
        return changes
    }

    /// Matches sections by id; identical id lists, the common case, skip hashing.
    @inlinable
    static func matchSections(
        _ old: [ListSection<Section, Item>], _ new: [ListSection<Section, Item>]
    ) -> HeckelMatch {
        if old.count == new.count, zip(old, new).allSatisfy({ $0.id == $1.id }) {
            return HeckelMatch(identity: old.count)
        }
        var symbols = SymbolTable<Section.ID>(capacity: old.count + new.count)
        let oldSymbols = old.map { symbols.symbol(for: $0.id) }
        let newSymbols = new.map { symbols.symbol(for: $0.id) }
        return HeckelMatch(old: oldSymbols, new: newSymbols, symbolCount: symbols.count)
    }

    /// Pairs the items of old section `from` and new section `to` in order: the common
    /// prefix and suffix, then, in between, the runs of a short edit script. Appends the
    /// items left unpaired, and the new paths of paired items whose value changed.
    /// Returns whether the pairs are a longest run in order: false when the items
    /// between prefix and suffix differ too much for ``OrderedMatch`` and are all left
    /// unpaired.
    @inlinable
    static func pair(
        _ old: [Item], _ new: [Item], from: Int, to: Int,
        _ oldUnpaired: inout Unpaired, _ newUnpaired: inout Unpaired, updated: inout [ItemPath]
    ) -> Bool {
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                let (prefix, suffix) = trim(old, new, section: to, updated: &updated)
                let oldMiddle = prefix..<(old.count - suffix)
                let newMiddle = prefix..<(new.count - suffix)
                guard !oldMiddle.isEmpty, !newMiddle.isEmpty,
                    let runs = OrderedMatch.runs(old: oldMiddle.count, new: newMiddle.count, equal: { old[prefix + $0].id == new[prefix + $1].id })
                else {
                    oldUnpaired.append(oldMiddle, of: from)
                    newUnpaired.append(newMiddle, of: to)
                    return oldMiddle.isEmpty || newMiddle.isEmpty
                }
                var oldNext = prefix
                var newNext = prefix
                for run in runs {
                    let oldStart = prefix + run.old
                    let newStart = prefix + run.new
                    oldUnpaired.append(oldNext..<oldStart, of: from)
                    newUnpaired.append(newNext..<newStart, of: to)
                    for offset in 0..<run.count where old[oldStart + offset] != new[newStart + offset] {
                        updated.append(ItemPath(section: to, item: newStart + offset))
                    }
                    oldNext = oldStart + run.count
                    newNext = newStart + run.count
                }
                oldUnpaired.append(oldNext..<oldMiddle.upperBound, of: from)
                newUnpaired.append(newNext..<newMiddle.upperBound, of: to)
                return true
            }
        }
    }

    /// The symbols of the ids of the `unpaired` items of `snapshot`, by position.
    @inlinable
    static func symbols(_ snapshot: Self, _ unpaired: Unpaired, _ table: inout SymbolTable<Item.ID>) -> [Int] {
        var symbols = [Int](repeating: 0, count: unpaired.count)
        for (section, range) in unpaired.ranges.enumerated() where !range.isEmpty {
            snapshot.sections[section].items.withUnsafeBufferPointer { items in
                for position in range {
                    symbols[position] = table.symbol(for: items[unpaired.paths[position].item].id)
                }
            }
        }
        return symbols
    }

    /// The lengths of the common prefix and suffix of `old` and `new` by id, recording
    /// the new paths of items whose value changed.
    @inlinable
    static func trim(
        _ old: UnsafeBufferPointer<Item>, _ new: UnsafeBufferPointer<Item>, section: Int, updated: inout [ItemPath]
    ) -> (Int, Int) {
        let limit = Swift.min(old.count, new.count)
        var prefix = 0
        while prefix < limit {
            if old[prefix] != new[prefix] {
                guard old[prefix].id == new[prefix].id else { break }
                updated.append(ItemPath(section: section, item: prefix))
            }
            prefix += 1
        }
        var suffix = 0
        while suffix < limit - prefix {
            let oldIndex = old.count - 1 - suffix
            let newIndex = new.count - 1 - suffix
            if old[oldIndex] != new[newIndex] {
                guard old[oldIndex].id == new[newIndex].id else { break }
                updated.append(ItemPath(section: section, item: newIndex))
            }
            suffix += 1
        }
        return (prefix, suffix)
    }
}
