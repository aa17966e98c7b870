import ComponentryList

/// An item identified by `id`, whose content is `version`.
struct Row: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var version = 0

    var description: String { version == 0 ? "\(id)" : "\(id)v\(version)" }
}

/// A section identified by `id`, whose content is `title`.
struct Group: Identifiable, Equatable, Sendable {
    let id: String
    var title = ""
}

typealias Snapshot = ListSnapshot<Group, Row>

extension ListSnapshot where Section == Group, Item == Row {
    /// `["a": [1, 2], "b": [3]]`-style snapshots, in the order given.
    init(_ sections: KeyValuePairs<String, [Int]>) {
        self.init(sections: sections.map { ListSection(Group(id: $0.key), items: $0.value.map { Row(id: $0) }) })
    }
}
