public import TallyStore

/// What a browser sends: an event on an element of the page, named as the page's script
/// names it, with the section the element belongs to and its value.
///
/// The events: `move` (value: the new index), `hide` (value `on`, or `off` to show) and
/// `show` of a section; `sheet` (value `date`, `sections`, `metric:KEY`, `filter`,
/// `filter:PROPERTY`, `funnel`, `user:ID`, `users`, `users:PREFIX`, `paths`, `paths:SCREEN`, `members` or `alerts`) and `close-sheet`; `range` (a preset: `today`,
/// `yesterday`, `7d`, `30d`, `90d`, `month`), `custom` (value `from=YYYY-MM-DD&date=YYYY-MM-DD`,
/// the date sheet's form) and `compare` (`on`, `off`); `expand` of a section (`on`: its lists
/// show every row; `off`: the first ones); `search` (the text); `reload`; the
/// filter bar's `filters` (a whole filter in Plausible's syntax: a saved segment, or none),
/// `remove-filter` (the index of a condition), `save-segment` (its form, `name=…`: the
/// page's filter saved under that name) and `delete-segment` (a saved segment's name), and
/// the filter sheet's `filter-property` (a property to pick values of) and `add-filter` (its form:
/// `property=…&operator=is|is_not&value=…&other=…`); `funnel` (the funnel sheet's form:
/// `step=…` per step, `window=…`, `breakdown=…`); the user search's `user-search` (its form:
/// `prefix=…`) and the user sheet's `older-events` (the cursor its timeline goes on from);
/// `paths` (the paths sheet's form: `start=…&kind=screen|event&direction=after|before&depth=1…5`);
/// `navigate` (the query of the address the browser went back or forward to); the members
/// sheet's `add-member` (its form, `name=…&role=owner|editor|viewer`: a user given a role, or
/// their role changed) and `remove-member` (a member's name), which only an owner may send;
/// the alerts sheet's `add-alert` (its form: `name=…&metric=…&condition=…&webhook=…`),
/// `delete-alert` (a stored rule's name), `add-annotation` (its form: `day=YYYY-MM-DD&text=…`)
/// and `delete-annotation` (an annotation's id), which an editor or an owner may send.
public struct BrowserEvent: Hashable, Sendable, Decodable {
    /// The `data-section` of the element's section, or `nil` for an element of the page itself.
    public var section: String?
    /// The event's name.
    public var name: String
    /// The event's value, as text.
    public var value: String?

    /// The name of every event the page takes (see ``DashboardPage/receive(_:)``); a page
    /// refuses any other as ``BrowserEventError/unknownEvent(_:)``.
    public static let names = [
        "move", "hide", "show", "search", "sheet", "close-sheet", "range", "custom", "compare", "expand", "reload", "filters",
        "remove-filter", "add-filter", "save-segment", "delete-segment", "filter-property", "funnel", "user-search", "paths",
        "older-events", "navigate", "add-member", "remove-member", "add-alert", "delete-alert", "add-annotation", "delete-annotation",
    ]

    /// Creates an event.
    public init(section: String?, name: String, value: String? = nil) {
        self.section = section
        self.name = name
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case section
        case name = "event"
        case value
    }
}

/// Why the page refused a ``BrowserEvent``; the page itself is unchanged.
public enum BrowserEventError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The page knows no event of this name.
    case unknownEvent(String)
    /// The event's value or section is missing or not what the event takes.
    case badValue(BrowserEvent)
    /// The event names a section the page's layout does not have (a forged id).
    case unknownSection(String)
    /// A reload was asked for while one runs.
    case busy
    /// No responder took the event (a section the page does not have, say).
    case unhandled(String)
    /// The user's role in the app does not allow the event (a viewer saving a segment, say);
    /// nothing changed.
    case notAllowed(String, role: AppRole)

    public var description: String {
        switch self {
        case .unknownEvent(let name): "unknown event \"\(name.prefix(40))\""
        case .badValue(let event): "\"\(event.name)\" cannot take the value \"\((event.value ?? "none").prefix(40))\""
        case .unknownSection(let id): "the page has no section \"\(id.prefix(40))\""
        case .busy: "a refresh is already running"
        case .unhandled(let name): "nothing on the page takes \"\(name.prefix(40))\""
        case .notAllowed(let name, let role): "a \(role.rawValue) of this app cannot \"\(name.prefix(40))\": ask an owner for the editor role"
        }
    }
}
