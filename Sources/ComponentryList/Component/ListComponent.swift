/// A self-managed part of a list (L1, L4): it owns its items and decides, for each one,
/// the cell that shows it, how it is bound, and what a tap does — so the module and the
/// page never do.
///
/// Only ``id``, ``items`` and ``cell(for:)`` are required:
///
/// ```swift
/// final class PagesComponent: ListComponent {
///     let id = "pages"
///     var items: [PageVisits] = []
///     var layout: ComponentLayout { ComponentLayout(distribution: .columns(2), itemRatio: .height(56)) }
///     func cell(for page: PageVisits) -> Cell {
///         Cell("page", ["name": page.name, "visits": "\(page.visits)"])
///     }
///     func didSelect(_ page: PageVisits) { router.open(page) }
/// }
/// ```
///
/// Identity: ``id`` names the component from one render to the next (for the diff, for
/// element ids, for scroll offsets), and must be unique in its data source. Items are
/// `Identifiable`; two items are the same item, wherever they are, when their ids
/// describe the same (`String(describing:)`) and their types are the same. Items are
/// `Equatable` only for the cheap "nothing changed" check; what changes a render is the
/// ``Cell``.
@MainActor
public protocol ListComponent: AnyObject {
    /// What the component shows one cell for.
    associatedtype Item: Identifiable

    /// The component's identity: stable, unique within its data source.
    var id: String { get }
    /// The items, in display order.
    var items: [Item] { get }
    /// Down the list (the default) or one row across it.
    var arrangement: Arrangement { get }
    /// Insets, spacing, distribution and item shape.
    var layout: ComponentLayout { get }
    /// The header cell above the items, if any (its height is the layout's
    /// ``ComponentLayout/headerHeight``).
    var header: Cell? { get }
    /// The footer cell below the items, if any.
    var footer: Cell? { get }
    /// Whether the data source hides the component while it has no items; default `true`.
    var hidesWhenEmpty: Bool { get }

    /// The kind of cell for `item` and the values bound into it.
    func cell(for item: Item) -> Cell
    /// Called when `item` is selected (tapped, clicked); the default does nothing.
    func didSelect(_ item: Item)
    /// The size of `item` when the component sizes it itself, or `nil` (the default) for
    /// the size its ``layout`` proposes. Called again only when the item's cell or the
    /// container width changes, or when the item comes back after leaving the list.
    func size(for item: Item, proposed: ListSize) -> ListSize?
}

extension ListComponent {
    public var arrangement: Arrangement { .vertical }
    public var layout: ComponentLayout { ComponentLayout() }
    public var header: Cell? { nil }
    public var footer: Cell? { nil }
    public var hidesWhenEmpty: Bool { true }
    public func didSelect(_ item: Item) {}
    public func size(for item: Item, proposed: ListSize) -> ListSize? { nil }
}
