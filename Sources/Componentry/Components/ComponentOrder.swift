/// The layout of a page: its components' identifiers in display order, and which of them
/// the user hid.
///
/// Write one in code or decode one from configuration; JSON is either a plain list or an
/// object that also names the hidden components:
///
/// ```json
/// ["revenue", "users", "versions"]
/// {"identifiers": ["revenue", "users", "versions"], "hidden": ["users"]}
/// ```
///
/// ``ComponentManager/order`` is the current one, with the user's reordering and hiding,
/// ready to persist. An identifier appears at most once: later repeats are dropped.
public struct ComponentOrder: Hashable, Sendable {
    /// The identifiers, in display order, hidden ones included.
    public private(set) var identifiers: [String]

    /// The identifiers the user hid.
    public private(set) var hidden: Set<String>

    /// A layout showing `identifiers` in order, except the `hidden` ones.
    public init(_ identifiers: [String], hidden: Set<String> = []) {
        var seen: Set<String> = []
        self.identifiers = identifiers.filter { seen.insert($0).inserted }
        self.hidden = hidden.intersection(self.identifiers)
    }

    /// The identifiers shown, in order.
    public var visible: [String] {
        identifiers.filter { !hidden.contains($0) }
    }

    /// Whether the layout names `identifier`.
    public func contains(_ identifier: String) -> Bool {
        identifiers.contains(identifier)
    }

    mutating func insert(_ identifier: String, at index: Int) {
        identifiers.insert(identifier, at: index)
    }

    mutating func remove(_ identifier: String) {
        identifiers.removeAll { $0 == identifier }
        hidden.remove(identifier)
    }

    mutating func move(_ identifier: String, to index: Int) {
        identifiers.removeAll { $0 == identifier }
        identifiers.insert(identifier, at: index)
    }

    mutating func setHidden(_ isHidden: Bool, _ identifier: String) {
        if isHidden { hidden.insert(identifier) } else { hidden.remove(identifier) }
    }
}
