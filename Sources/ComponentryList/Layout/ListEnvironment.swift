/// What the module, its data source, its components and the layout all see of the
/// container they are shown in (L6).
///
/// There is one per ``ListModule`` (``ListModule/environment``); changing it lays the
/// whole list out again. The layout is a pure function of the environment and the
/// components, so the same module lays out the same way in a test, on a server or in an
/// app.
public struct ListEnvironment: Hashable, Sendable {
    /// The width of the list's container, in points; components lay out their rows in it.
    ///
    /// Any value is accepted, from a browser too: it is clamped to
    /// `0...ListLayout.maximumLength`, and NaN is 0.
    public var containerWidth: Double {
        get { width }
        set { width = ListLayout.clampedLength(newValue) }
    }

    private var width: Double

    /// Creates an environment for a container `containerWidth` points wide.
    public init(containerWidth: Double = 375) {
        width = ListLayout.clampedLength(containerWidth)
    }
}
