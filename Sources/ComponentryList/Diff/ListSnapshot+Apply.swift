extension ListSnapshot {
    /// Replays `changes` in order, as a renderer would.
    ///
    /// Applying `old.changes(to: new)` to `old` gives `new`. Indices outside the list
    /// trap, like array subscripts.
    public mutating func apply(_ changes: [ListChange<Section, Item>]) {
        for change in changes {
            apply(change)
        }
    }

    /// Replays one change.
    public mutating func apply(_ change: ListChange<Section, Item>) {
        switch change {
        case .deleteItem(let path):
            sections[path.section].items.remove(at: path.item)
        case .deleteSection(let index):
            sections.remove(at: index)
        case .moveSection(let from, let to):
            sections.insert(sections.remove(at: from), at: to)
        case .insertSection(let section, let index):
            sections.insert(section, at: index)
        case .moveItem(let from, let to):
            let item = sections[from.section].items.remove(at: from.item)
            sections[to.section].items.insert(item, at: to.item)
        case .insertItem(let item, let path):
            sections[path.section].items.insert(item, at: path.item)
        case .reconfigureItem(let item, let path):
            sections[path.section].items[path.item] = item
        case .reconfigureSection(let model, let index):
            sections[index].model = model
        }
    }
}
