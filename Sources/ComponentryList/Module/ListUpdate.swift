/// What changed on screen at one ``ListModule/reload()``: the list before and after, and
/// the ordered batch between them, for a renderer to animate or patch.
public struct ListUpdate: Sendable {
    /// The list as it was rendered before.
    public let old: RenderedList
    /// The list as it is rendered now.
    public let new: RenderedList
    /// The batch that turns `old` into `new` (see ``ListChange``).
    public let changes: [ListChange<RenderedComponent, RenderedItem>]
}
