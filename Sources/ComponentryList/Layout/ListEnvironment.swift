/// What the module, its data source, its components and the layout all see of the
/// container they are shown in (L6).
///
/// There is one per ``ListModule`` (``ListModule/environment``); changing it lays the
/// whole list out again. The layout is a pure function of the environment and the
/// components, so the same module lays out the same way in a test, on a server or in an
/// app.
public struct ListEnvironment: Hashable, Sendable {
    /// The width of the list's container, in points; components lay out their rows in it.
    public var containerWidth: Double

    /// Creates an environment for a container `containerWidth` points wide.
    public init(containerWidth: Double = 375) {
        self.containerWidth = containerWidth
    }
}
