/// A width and a height, in points.
public struct ListSize: Hashable, Sendable {
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a size.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// No width and no height.
    public static let zero = ListSize(width: 0, height: 0)
}

extension ListSize {
    /// Each side in `0...ListLayout.maximumLength`, NaN as 0.
    var clamped: ListSize {
        ListSize(width: ListLayout.clampedLength(width), height: ListLayout.clampedLength(height))
    }
}
