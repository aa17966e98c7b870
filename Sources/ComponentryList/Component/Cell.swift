/// What one cell shows: its kind and the named values bound into it.
///
/// A component binds an item by returning a cell (``ListComponent/cell(for:)``); a
/// renderer turns it into a view, an HTML element or anything else. Cells are values,
/// so two renders of the same item compare equal exactly when nothing visible changed —
/// which is how the diff knows to reconfigure an item in place.
///
/// ```swift
/// Cell("metric", ["title": "DAU", "value": "1,204"])
/// ```
public struct Cell: Hashable, Sendable {
    /// One named value.
    public struct Field: Hashable, Sendable {
        /// The name of the slot, like `"title"`.
        public var name: String
        /// The text shown in it.
        public var value: String
    }

    /// The kind of cell to prepare.
    public var kind: CellKind
    /// The values, in the order given.
    public var fields: [Field]

    /// Creates a cell of `kind` showing `fields`, in order.
    public init(_ kind: CellKind, _ fields: KeyValuePairs<String, String> = [:]) {
        self.kind = kind
        self.fields = fields.map { Field(name: $0.key, value: $0.value) }
    }

    /// The value of the field called `name`, if any.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }
}
