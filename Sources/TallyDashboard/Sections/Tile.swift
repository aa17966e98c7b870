/// One number of a section as a list item: what a section's cells show.
public struct Tile: Identifiable, Hashable, Sendable {
    /// The metric key, unique in the page: the cell's `data-metric`.
    public var id: String
    /// The label.
    public var label: String
    /// The number, as text.
    public var value: String
    /// A second line, if any.
    public var detail: String?
}
