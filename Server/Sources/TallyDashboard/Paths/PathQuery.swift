import Foundation
public import TallyStore

/// What the paths sheet asks for: the step paths start from, whether steps are screens or
/// events, which way the levels go and how many there are, as the page's address writes
/// them (`start=BillEditor&kind=screen&direction=before&depth=4`).
///
/// A query being drafted may have no start (the kind was just changed, and the new kind has
/// nothing to start from): the sheet then shows its form alone.
public struct PathQuery: Hashable, Sendable {
    /// The screen, or with ``Paths/Kind/event`` the event name, paths start from; empty
    /// while none is picked. At most ``maximumStartLength`` characters, without U+0000.
    public var start: String
    /// Whether steps are screens or events.
    public var kind: Paths.Kind
    /// Whether the levels are the steps after the start or before it.
    public var direction: Paths.Direction
    /// How many levels: 1 to ``TallyStore/Paths/maximumDepth``.
    public var depth: Int

    /// The levels shown unless the address names a depth.
    public static let defaultDepth = 3
    /// The most characters of a start the page reads: no event name is this long (at most
    /// `Event.maximumNameLength`, 100), and a screen longer than this has no paths link.
    public static let maximumStartLength = 1_024

    /// The paths of `start`, a screen unless `kind` says otherwise, after it, 3 levels deep.
    public init(start: String = "", kind: Paths.Kind = .screen, direction: Paths.Direction = .after, depth: Int = defaultDepth) {
        self.start = start
        self.kind = kind
        self.direction = direction
        self.depth = depth
    }

    /// Whether the query names a start to count from.
    public var isComplete: Bool { !start.isEmpty }

    /// Whether `start` may start paths: at most ``maximumStartLength`` characters, without U+0000.
    static func isValidStart(_ start: String) -> Bool {
        start.count <= maximumStartLength && !start.unicodeScalars.contains("\0")
    }

    /// Reads the sheet's parameters: `start`, `kind` (`screen` or `event`), `direction`
    /// (`after` or `before`) and `depth` (1 to ``TallyStore/Paths/maximumDepth``);
    /// each may be missing.
    ///
    /// - Throws: ``PageQueryError`` naming the parameter that cannot be read.
    init(_ parameters: [String: String]) throws(PageQueryError) {
        self.init()
        if let start = parameters["start"] {
            guard Self.isValidStart(start) else {
                throw .badParameter("start", "a screen or event name of at most \(Self.maximumStartLength) characters")
            }
            self.start = start
        }
        if let text = parameters["kind"] {
            guard let kind = Paths.Kind(rawValue: text) else { throw .badParameter("kind", "screen or event") }
            self.kind = kind
        }
        if let text = parameters["direction"] {
            guard let direction = Paths.Direction(rawValue: text) else { throw .badParameter("direction", "after or before") }
            self.direction = direction
        }
        if let text = parameters["depth"] {
            // `Int.init(_:)` answers nil, never traps, for digits past Int.max.
            guard let depth = Int(text), (1...Paths.maximumDepth).contains(depth) else {
                throw .badParameter("depth", "a whole number from 1 to \(Paths.maximumDepth)")
            }
            self.depth = depth
        }
    }

    /// Reads the sheet's form as the page's script sends it, its fields decoded (a `+` as a
    /// space): `start`, `kind`, `direction` and `depth`, each optional; `nil` if one does not
    /// read.
    init?(form items: [URLQueryItem]) {
        var parameters: [String: String] = [:]
        for item in items where parameters[item.name] == nil { parameters[item.name] = item.value ?? "" }
        guard let query = try? PathQuery(parameters) else { return nil }
        self = query
    }

    /// The query's URL parameters: the start and the kind, then the direction and the depth
    /// unless they are the defaults.
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if !start.isEmpty { items.append(URLQueryItem(name: "start", value: start)) }
        items.append(URLQueryItem(name: "kind", value: kind.rawValue))
        if direction != .after { items.append(URLQueryItem(name: "direction", value: direction.rawValue)) }
        if depth != Self.defaultDepth { items.append(URLQueryItem(name: "depth", value: String(depth))) }
        return items
    }
}
