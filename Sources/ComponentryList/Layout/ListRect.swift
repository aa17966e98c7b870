/// A rectangle: an origin at its top-left corner and a size, in points; y grows down.
public struct ListRect: Hashable, Sendable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge.
    @inlinable public var maxX: Double { x + width }
    /// The bottom edge.
    @inlinable public var maxY: Double { y + height }

    /// The same rectangle moved down by `dy`.
    @inlinable
    public func offsetBy(dy: Double) -> ListRect {
        ListRect(x: x, y: y + dy, width: width, height: height)
    }
}
