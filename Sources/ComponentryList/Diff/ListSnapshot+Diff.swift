extension ListSnapshot {
    /// The ordered batch of changes that turns this snapshot into `new`.
    ///
    /// Applying the result to this snapshot with ``apply(_:)`` gives `new`. The batch
    /// is ordered and safe to replay as is; ``ListChange`` lists the order.
    ///
    /// How: sections are matched by id. In each pair of matched sections the common
    /// prefix and suffix of items are trimmed, which makes appends and unchanged lists
    /// linear scans. The remaining items of all sections are matched by id with Heckel's
    /// linear algorithm, so an item may move between sections. Moves are the fewest
    /// possible: every item that keeps its section and lies on a longest run still in
    /// order stays, so a swap of two items is 2 moves. A matched item whose value
    /// changed becomes a ``ListChange/reconfigureItem(_:at:)``. Items of a deleted or
    /// inserted section leave or arrive with it.
    ///
    /// Cost: O(n) for the scans and matching plus O(m log m) for the m items that are
    /// not in a trimmed prefix or suffix; each identity is hashed once.
    @inlinable
    public func changes(to new: Self) -> [ListChange<Section, Item>] {
        let old = self
        let sectionMatch = Self.matchSections(old.sections, new.sections)

        // Trim each pair of matched sections; what remains are the middles. Hash each
        // middle id once into a symbol; from here on the diff works on Ints.
        var prefix = [Int](repeating: 0, count: new.sections.count)
        var suffix = prefix
        var updated: [ItemPath] = []
        var middleCount = 0
        for section in new.sections.indices where sectionMatch.newToOld[section] >= 0 {
            let oldItems = old.sections[sectionMatch.newToOld[section]].items, newItems = new.sections[section].items
            (prefix[section], suffix[section]) = Self.trim(oldItems, newItems, section: section, updated: &updated)
            middleCount += oldItems.count + newItems.count - 2 * (prefix[section] + suffix[section])
        }
        // Room for every old id and some new ones, without doubling the table.
        var symbols = SymbolTable<Item.ID>(capacity: middleCount * 5 / 8)
        var oldMiddles = Middles(), oldSymbols: [Int] = []
        for (section, match) in sectionMatch.oldToNew.enumerated() {
            Self.middle(of: old.sections[section].items, prefix: match < 0 ? nil : prefix[match], suffix: match < 0 ? 0 : suffix[match], into: &oldMiddles, &oldSymbols, &symbols)
        }
        var newMiddles = Middles(), newSymbols: [Int] = []
        for (section, match) in sectionMatch.newToOld.enumerated() {
            Self.middle(of: new.sections[section].items, prefix: match < 0 ? nil : prefix[section], suffix: suffix[section], into: &newMiddles, &newSymbols, &symbols)
        }
        let itemMatch = HeckelMatch(old: oldSymbols, new: newSymbols, symbolCount: symbols.count)
        for section in new.sections.indices {
            for index in newMiddles.indices(of: section) where itemMatch.newToOld[index] >= 0 {
                let path = newMiddles.path(of: index, in: section)
                if old[oldMiddles.path(of: itemMatch.newToOld[index])] != new[path] { updated.append(path) }
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

    /// Appends a section's middle, `items[prefix..<(count - suffix)]`, and the symbols
    /// of its ids; an unmatched section (`prefix == nil`) has an empty middle.
    @inlinable
    static func middle(
        of items: [Item], prefix: Int?, suffix: Int,
        into middles: inout Middles, _ symbols: inout [Int], _ table: inout SymbolTable<Item.ID>
    ) {
        guard let prefix else { return middles.appendSection(count: 0, offset: 0) }
        let range = prefix..<(items.count - suffix)
        middles.appendSection(count: range.count, offset: prefix)
        symbols.reserveCapacity(symbols.count + range.count)
        items.withUnsafeBufferPointer { items in
            for item in range { symbols.append(table.symbol(for: items[item].id)) }
        }
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
