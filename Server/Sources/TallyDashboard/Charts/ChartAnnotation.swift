/// An annotation as the charts mark it: on its local day, with its text.
public struct ChartAnnotation: Hashable, Sendable {
    /// The day it falls on in the page's time zone, `YYYY-MM-DD`.
    public var day: String
    /// Its text.
    public var text: String

    /// Creates a marker.
    public init(day: String, text: String) {
        self.day = day
        self.text = text
    }
}
