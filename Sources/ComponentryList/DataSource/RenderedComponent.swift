/// One component as rendered, without its items: identity, arrangement, layout, header
/// and footer.
public struct RenderedComponent: Identifiable, Hashable, Sendable {
    /// The component's ``ListComponent/id``.
    public let id: String
    /// Down the list or across.
    public let arrangement: Arrangement
    /// Insets, spacing, distribution, item shape.
    public let layout: ComponentLayout
    /// The header cell, if any.
    public let header: Cell?
    /// The footer cell, if any.
    public let footer: Cell?

    /// Creates a rendered component.
    public init(
        id: String, arrangement: Arrangement = .vertical, layout: ComponentLayout = ComponentLayout(), header: Cell? = nil, footer: Cell? = nil
    ) {
        self.id = id
        self.arrangement = arrangement
        self.layout = layout
        self.header = header
        self.footer = footer
    }
}

/// A list as rendered: what renderers draw and diff. Build one with
/// ``ListDataSource/render()`` or ``ListModule/render()``.
public typealias RenderedList = ListSnapshot<RenderedComponent, RenderedItem>
