/// How a component places its items (L7).
public enum Arrangement: Hashable, Sendable {
    /// Rows that wrap, stacked down the list: a grid.
    case vertical
    /// One row that scrolls sideways inside the vertical list, like an App Store shelf.
    /// The component is written exactly as a vertical one; only the layout and the
    /// renderer differ.
    case horizontal
}
