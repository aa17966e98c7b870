extension Array {
    /// The first position any change of the batch touches: everything before it is the
    /// same before and after the batch. The end of the list when the batch is empty.
    func firstPath<Section, Item>() -> ItemPath where Element == ListChange<Section, Item> {
        var first = ItemPath(section: .max, item: 0)
        for change in self {
            let path: ItemPath =
                switch change {
                case .deleteItem(let path), .insertItem(_, let path), .reconfigureItem(_, let path): path
                case .moveItem(let from, let to): Swift.min(from, to)
                case .deleteSection(let index), .insertSection(_, let index), .reconfigureSection(_, let index):
                    ItemPath(section: index, item: 0)
                case .moveSection(let from, let to): ItemPath(section: Swift.min(from, to), item: 0)
                }
            first = Swift.min(first, path)
        }
        return first
    }
}
