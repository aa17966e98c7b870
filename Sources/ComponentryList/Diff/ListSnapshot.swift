/// The content of a list at one moment: sections of items, both identified.
///
/// A snapshot is a plain value. Compare two with ``changes(to:)``, which returns the
/// batch of ``ListChange``s that turns one into the other, and replay a batch with
/// ``apply(_:)``. Both work from any thread.
///
/// ```swift
/// let old = ListSnapshot(sections: [ListSection(Group(id: "a"), items: bills)])
/// let new = ListSnapshot(sections: [ListSection(Group(id: "a"), items: editedBills)])
/// var replayed = old
/// replayed.apply(old.changes(to: new))   // replayed == new
/// ```
///
/// Identity: section ids and item ids should each be unique within a snapshot. Duplicates
/// are tolerated (the batch still turns old into new) but are matched by position.
public struct ListSnapshot<Section: Identifiable & Equatable, Item: Identifiable & Equatable>: Equatable {
    /// The sections, in display order.
    public var sections: [ListSection<Section, Item>]

    /// Creates a snapshot of `sections`.
    @inlinable
    public init(sections: [ListSection<Section, Item>] = []) {
        self.sections = sections
    }

    /// The item at `path`.
    @inlinable
    public subscript(path: ItemPath) -> Item {
        sections[path.section].items[path.item]
    }
}

extension ListSnapshot: Sendable where Section: Sendable, Item: Sendable {}
