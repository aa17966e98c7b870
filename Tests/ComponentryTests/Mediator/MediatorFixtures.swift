import Componentry

/// A book, as the catalog target sends it.
struct Book: Codable, Sendable, Equatable {
    let id: Int
    let title: String
}

/// A book, as a module that shares no type with the catalog reads it.
struct BookSummary: Codable, Sendable, Equatable {
    let title: String
}

struct OutOfStock: Error {}

/// A target with an action of each kind.
final class CatalogTarget: MediatorTarget {
    static let name = "Catalog"

    init(mediator: Mediator) {}

    static func registerActions(in table: inout MediatorActionTable<CatalogTarget>) {
        table.action("title") { _, parameters in
            "Book \(try parameters.value("id", as: Int.self))"
        }
        table.action("book", allowsURLCalls: true) { _, parameters in
            Book(id: try parameters.value("id"), title: try parameters.value("title", default: "Untitled"))
        }
        table.action("echo") { _, parameters in
            try parameters.value("value", as: BookSummary.self)
        }
        table.action("buy") { _, _ -> Int in
            throw OutOfStock()
        }
        table.mainActorAction("page") { _, parameters in
            MainActor.assertIsolated()
            return "page \(try parameters.value("id", as: Int.self))"
        }
        table.action("load") { _, parameters async throws in
            await Task.yield()
            return "loaded \(try parameters.value("id", as: Int.self))"
        }
    }
}

/// A target that answers actions it does not declare itself.
final class LenientTarget: MediatorTarget {
    static let name = "Lenient"

    init(mediator: Mediator) {}

    static func registerActions(in table: inout MediatorActionTable<LenientTarget>) {
        table.action("known") { _, _ in "known" }
        table.notFound { _, call in "lenient \(call.action)" }
    }
}

/// Stands in for the catalog in tests.
final class StubCatalog: MediatorTarget {
    static let name = "StubCatalog"

    init(mediator: Mediator) {}

    static func registerActions(in table: inout MediatorActionTable<StubCatalog>) {
        table.action("title") { _, _ in "Stub" }
    }
}

extension Mediator {
    /// A typed facade, as a module would declare it.
    func catalogTitle(_ id: Int) throws(MediatorError) -> String {
        try call("Catalog", "title", ["id": id])
    }
}
