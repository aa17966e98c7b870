// What the data source needs of any component, written once here, generic over the
// component so that `any ListComponent` opens into a specialized call.

extension ListComponent {
    /// The cell of the item at `index`, or `nil` when there is none.
    func cell(at index: Int) -> Cell? {
        let items = items
        return items.indices.contains(index) ? cell(for: items[index]) : nil
    }

    /// Selects the item at `index`; `false` when there is none.
    func select(at index: Int) -> Bool {
        let items = items
        guard items.indices.contains(index) else { return false }
        didSelect(items[index])
        return true
    }

    func render() -> ListSection<RenderedComponent, RenderedItem> {
        let model = RenderedComponent(id: id, arrangement: arrangement, layout: layout, header: header, footer: footer)
        return ListSection(model, items: items.map { RenderedItem(id: ItemIdentity(of: $0), cell: cell(for: $0)) })
    }

    /// What the layout needs, given this component as `rendered`: items are keyed by
    /// identity and cell, so a size is measured again only when the cell changes.
    func layoutSection(_ rendered: ListSection<RenderedComponent, RenderedItem>) -> LayoutSection {
        let items = items
        let keys = rendered.items.map { ItemKey(id: $0.id.hashValue, version: $0.cell.hashValue) }
        return LayoutSection(
            id: id, style: layout, arrangement: arrangement, itemCount: items.count,
            measure: LayoutSection.Measure(keys: keys) { [self] index, proposed in size(for: items[index], proposed: proposed) }
        )
    }
}
