/// What the layout needs to know of one component: its identity, its layout, its
/// arrangement and its items — their count, and how the ones that size themselves are
/// measured.
///
/// ``ListDataSource`` builds these from its components; build them by hand to lay out
/// anything else. They are consumed by ``ListLayout/update(_:in:from:)`` on the calling
/// thread and not kept.
public struct LayoutSection {
    /// The component's identity: scroll offsets and measured sizes are kept per identity.
    public var id: String
    /// Spacing, insets, distribution and item shape.
    public var style: ComponentLayout
    /// Rows down the list, or one row across.
    public var arrangement: Arrangement
    /// The number of items; a negative count is 0.
    public var itemCount: Int
    /// How items that size themselves are measured, or `nil` when none do.
    public var measure: Measure?

    /// Measures items: what identifies each one's content, and the measuring function.
    public struct Measure {
        /// One key per item: its identity and its content version. A measured size is
        /// reused, without calling `size`, while the key and the proposed size (from the
        /// container width and the style) are the same — wherever the item has moved.
        /// Items past the end of `keys` are measured at every layout.
        public var keys: [ItemKey]
        /// The size of the item at an index, given the size the style proposes for it;
        /// `nil` keeps the proposed size. Each side is clamped to
        /// `0...ListLayout.maximumLength` (NaN as 0).
        public var size: (_ index: Int, _ proposed: ListSize) -> ListSize?

        /// Creates a measure.
        public init(keys: [ItemKey], size: @escaping (_ index: Int, _ proposed: ListSize) -> ListSize?) {
            self.keys = keys
            self.size = size
        }
    }

    /// Creates a section description.
    public init(
        id: String, style: ComponentLayout = ComponentLayout(), arrangement: Arrangement = .vertical,
        itemCount: Int, measure: Measure? = nil
    ) {
        self.id = id
        self.style = style
        self.arrangement = arrangement
        self.itemCount = itemCount
        self.measure = measure
    }
}

/// What a measured size is cached by: the item's identity and its content version,
/// both hashed to `Int`s. Never an index, so a size survives inserts and moves.
public struct ItemKey: Hashable, Sendable {
    /// The hash of the item's identity.
    public var id: Int
    /// A number that changes when what the item shows changes.
    public var version: Int

    /// Creates a key.
    public init(id: Int, version: Int) {
        self.id = id
        self.version = version
    }
}
