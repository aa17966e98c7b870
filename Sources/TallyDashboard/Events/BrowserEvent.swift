/// What a browser sends: an event on an element of the page, named as the page's script
/// names it, with the section the element belongs to.
public struct BrowserEvent: Hashable, Sendable {
    /// The `data-section` of the element's section, or `nil` for an element of the page itself.
    public var section: String?
    /// The event: `move` (with the new index as value), `hide` or `show`.
    public var name: String
    /// The event's value, as text.
    public var value: String?

    /// Creates an event.
    public init(section: String?, name: String, value: String? = nil) {
        self.section = section
        self.name = name
        self.value = value
    }
}

/// Why the page refused a ``BrowserEvent``; the page itself is unchanged.
public enum BrowserEventError: Error, Hashable, Sendable {
    /// The page knows no event of this name.
    case unknownEvent(String)
    /// The event's value or section is missing or not what the event takes.
    case badValue(event: String, value: String?)
    /// No responder took the event (a section the page does not have, say).
    case unhandled(String)
}
