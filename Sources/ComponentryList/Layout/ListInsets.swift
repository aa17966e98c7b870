/// Space around a component's items, in points.
public struct ListInsets: Hashable, Sendable {
    /// Space above the first row.
    public var top: Double
    /// Space before the first item of each row.
    public var left: Double
    /// Space below the last row.
    public var bottom: Double
    /// Space after the last item of each row.
    public var right: Double

    /// Creates insets; each edge defaults to 0.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    /// No insets.
    public static let zero = ListInsets()
}
