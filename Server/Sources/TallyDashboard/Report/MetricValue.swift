/// One headline number, as shown: its text and an optional second line.
public struct MetricValue: Hashable, Sendable {
    /// The number as people read it, such as `"1204"` or `"12.5 s"`.
    public var text: String
    /// A second line, such as `"max 9"`.
    public var detail: String?

    /// Creates a value.
    public init(_ text: String, detail: String? = nil) {
        self.text = text
        self.detail = detail
    }
}
