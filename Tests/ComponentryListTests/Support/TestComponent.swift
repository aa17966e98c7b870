import ComponentryList

/// A component of rows with every option settable, that records selection.
@MainActor
final class TestComponent: ListComponent {
    let id: String
    var items: [Row]
    var arrangement: Arrangement = .vertical
    var hidesWhenEmpty = true
    var kind: CellKind = "row"
    private(set) var selected: [Int] = []

    init(_ id: String, _ ids: [Int] = []) {
        self.id = id
        items = ids.map { Row(id: $0) }
    }

    func cell(for row: Row) -> Cell {
        Cell(kind, ["text": "\(row)"])
    }

    func didSelect(_ row: Row) {
        selected.append(row.id)
    }
}

extension ListDataSource {
    /// The ids of the visible components.
    var visibleIDs: [String] { visibleComponents.map(\.id) }
}
