/// One step of a batch that turns one ``ListSnapshot`` into another.
///
/// A batch from ``ListSnapshot/changes(to:)`` is ordered and safe: applied one step after
/// the other, every index refers to the list as the previous steps left it, so a renderer
/// can replay it literally (``ListSnapshot/apply(_:)`` does; so does the HTML patch
/// script). The steps come in this order:
///
/// 1. ``deleteItem(at:)``, from the last item to the first, at old paths;
/// 2. ``deleteSection(at:)``, from the last section to the first;
/// 3. ``moveSection(from:to:)``, the fewest that order the surviving sections;
/// 4. ``insertSection(_:at:)``, in ascending final index, with all of their items;
/// 5. ``moveItem(from:to:)``, the fewest that put the surviving items in their final
///    sections and order;
/// 6. ``insertItem(_:at:)``, in ascending final path;
/// 7. ``reconfigureItem(_:at:)`` and then ``reconfigureSection(_:at:)``, at final
///    positions: same identity, new content — update in place.
///
/// A move removes the element at `from`, then inserts it at `to` in the list as it is
/// after the removal.
public enum ListChange<Section: Identifiable & Equatable, Item: Identifiable & Equatable>: Equatable {
    /// Removes the item at `path`.
    case deleteItem(at: ItemPath)
    /// Removes the section at `index`, with its items.
    case deleteSection(at: Int)
    /// Moves the section at `from` to `to`.
    case moveSection(from: Int, to: Int)
    /// Inserts `section`, with its items, at `index`.
    case insertSection(ListSection<Section, Item>, at: Int)
    /// Moves the item at `from` to `to`, possibly into another section.
    case moveItem(from: ItemPath, to: ItemPath)
    /// Inserts `item` at `path`.
    case insertItem(Item, at: ItemPath)
    /// Replaces the item at `path` with `item`, which has the same identity.
    case reconfigureItem(Item, at: ItemPath)
    /// Replaces the model of the section at `index` with `section`, same identity.
    case reconfigureSection(Section, at: Int)
}

extension ListChange: Sendable where Section: Sendable, Item: Sendable {}
