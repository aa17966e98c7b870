/// The position of an item: its section and its index within that section.
///
/// Paths order by section, then item, so a sorted list of paths is in list order.
public struct ItemPath: Hashable, Comparable, Sendable {
    /// The index of the section (in a data source: of the visible component).
    public var section: Int
    /// The index of the item within its section.
    public var item: Int

    /// Creates the path of item `item` in section `section`.
    @inlinable
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }
}
