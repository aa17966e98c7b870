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
    /// run between the edits is never hashed. The items still unmatched, of all
    /// sections, are matched by id with Heckel's linear algorithm, so an item may move
    /// between sections. Moves are the fewest
    /// possible: every item that keeps its section and lies on a longest run still in
    /// order stays, so a swap of two items is 2 moves. A matched item whose value
    /// changed becomes a ``ListChange/reconfigureItem(_:at:)``. Items of a deleted or
    /// inserted section leave or arrive with it.
    ///
    /// Cost: O(n) for the scans and matching plus O(m log m) for the m items that are
    /// not in a trimmed prefix or suffix; each identity is hashed at most once.
    @inlinable
    public func changes(to new: Self) -> [ListChange<Section, Item>] {
        let old = self
        let sectionMatch = Self.matchSections(old.sections, new.sections)

        // Trim each pair of matched sections; what remains are the middles.
        var prefix = [Int](repeating: 0, count: new.sections.count)
        var suffix = prefix
        var updated: [ItemPath] = []
        for section in new.sections.indices where sectionMatch.newToOld[section] >= 0 {
            let oldItems = old.sections[sectionMatch.newToOld[section]].items, newItems = new.sections[section].items
            (prefix[section], suffix[section]) = Self.trim(oldItems, newItems, section: section, updated: &updated)
        }
        var oldMiddles = Middles(), newMiddles = Middles()
        for (section, match) in sectionMatch.oldToNew.enumerated() {
            oldMiddles.appendSection(count: old.sections[section].items.count, prefix: match < 0 ? nil : prefix[match], suffix: match < 0 ? 0 : suffix[match])
        }
        for (section, match) in sectionMatch.newToOld.enumerated() {
            newMiddles.appendSection(count: new.sections[section].items.count, prefix: match < 0 ? nil : prefix[section], suffix: suffix[section])
        }
        // Pair each matched section's middles in order where they differ by a few edits
        // (a swap, a move): the runs between the edits are compared, not hashed.
        var itemMatch = HeckelMatch(unmatchedOld: oldMiddles.count, new: newMiddles.count)
        var paired = false
        for section in new.sections.indices where sectionMatch.newToOld[section] >= 0 {
            let from = sectionMatch.newToOld[section]
            let oldRange = oldMiddles.indices(of: from), newRange = newMiddles.indices(of: section)
            guard !oldRange.isEmpty, !newRange.isEmpty else { continue }
            let oldOffset = oldMiddles.offsets[from], newOffset = newMiddles.offsets[section]
            paired = old.sections[from].items.withUnsafeBufferPointer { oldItems in
                new.sections[section].items.withUnsafeBufferPointer { newItems in
                    OrderedMatch.pair(old: oldRange, new: newRange, into: &itemMatch) { oldItems[oldOffset + $0].id == newItems[newOffset + $1].id }
                }
            } || paired
        }
        // Hash each id still unmatched once into a symbol, and match those by Heckel's
        // passes, across sections. Unpaired, the table has room for every old id and some
        // new ones, without doubling.
        var symbols = SymbolTable<Item.ID>(capacity: paired ? 0 : (oldMiddles.count + newMiddles.count) * 5 / 8)
        let (oldRest, oldSymbols) = Self.unmatched(old, oldMiddles, itemMatch.oldToNew, paired: paired, &symbols)
        let (newRest, newSymbols) = Self.unmatched(new, newMiddles, itemMatch.newToOld, paired: paired, &symbols)
        if paired {
            itemMatch.matchRest(old: oldRest, new: newRest, oldSymbols: oldSymbols, newSymbols: newSymbols, symbolCount: symbols.count)
        } else {
            itemMatch = HeckelMatch(old: oldSymbols, new: newSymbols, symbolCount: symbols.count)
        }
        for section in new.sections.indices {
            let from = sectionMatch.newToOld[section], kept = from < 0 ? 0..<0 : oldMiddles.indices(of: from)
            for index in newMiddles.indices(of: section) where itemMatch.newToOld[index] >= 0 {
                let path = newMiddles.path(of: index, in: section), oldIndex = itemMatch.newToOld[index]
                // Most matches keep their section: no search for the old one.
                let oldPath = kept.contains(oldIndex) ? oldMiddles.path(of: oldIndex, in: from) : oldMiddles.path(of: oldIndex)
                if old[oldPath] != new[path] { updated.append(path) }
            }
        }

        let plan = DiffPlan(sections: sectionMatch, items: itemMatch, old: oldMiddles, new: newMiddles)
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

    /// The middle items of `snapshot` that `match` leaves unmatched (their middle indices;
    /// none when nothing was `paired`, meaning all) and the symbols of their ids.
    @inlinable
    static func unmatched(
        _ snapshot: Self, _ middles: Middles, _ match: [Int], paired: Bool, _ table: inout SymbolTable<Item.ID>
    ) -> (indices: [Int], symbols: [Int]) {
        var indices: [Int] = [], symbols: [Int] = []
        symbols.reserveCapacity(paired ? 0 : middles.count)
        for section in snapshot.sections.indices {
            let range = middles.indices(of: section)
            guard !range.isEmpty else { continue }
            let offset = middles.offsets[section] - range.lowerBound
            snapshot.sections[section].items.withUnsafeBufferPointer { items in
                for index in range where !paired || match[index] < 0 {
                    if paired { indices.append(index) }
                    symbols.append(table.symbol(for: items[offset + index].id))
                }
            }
        }
        return (indices, symbols)
    }

    /// The lengths of the common prefix and suffix of `old` and `new` by id, recording
    /// the new paths of items whose value changed.
    @inlinable
    static func trim(_ old: [Item], _ new: [Item], section: Int, updated: inout [ItemPath]) -> (Int, Int) {
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
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
                    let oldIndex = old.count - 1 - suffix, newIndex = new.count - 1 - suffix
                    if old[oldIndex] != new[newIndex] {
                        guard old[oldIndex].id == new[newIndex].id else { break }
                        updated.append(ItemPath(section: section, item: newIndex))
                    }
                    suffix += 1
                }
                return (prefix, suffix)
            }
        }
    }
}
