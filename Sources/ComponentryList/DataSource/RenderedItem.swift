/// One item as rendered: its identity and its cell.
///
/// Equal when nothing visible changed, so the diff reconfigures an item exactly when its
/// cell differs.
public struct RenderedItem: Identifiable, Hashable, Sendable {
    /// The item's identity.
    public let id: ItemIdentity
    /// What the item shows.
    public let cell: Cell

    /// Creates a rendered item.
    public init(id: ItemIdentity, cell: Cell) {
        self.id = id
        self.cell = cell
    }
}
