/// A kind of cell, named by a reuse identifier: what a renderer prepares once and then
/// fills with any item's content.
///
/// ```swift
/// let metric: CellKind = "metric"
/// ```
public struct CellKind: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The reuse identifier.
    public let identifier: String

    /// Creates the kind named `identifier`.
    public init(_ identifier: String) {
        self.identifier = identifier
    }

    public init(stringLiteral identifier: String) {
        self.init(identifier)
    }

    public var description: String { identifier }
}
