import Componentry
import Foundation
import Testing

@Suite("Mediator interceptors and test support")
struct MediatorInterceptionTests {
    let mediator = Mediator()

    init() throws {
        try mediator.register(CatalogTarget.self)
    }

    @Test func anInterceptorCanGateCallsBehindALogin() throws {
        let signedIn = Recorder<Bool>()
        let gate = mediator.addInterceptor { call in
            guard call.action == "book", signedIn.values.last != true else { return .proceed }
            return .refuse(reason: "sign in first")
        }
        let error = #expect(throws: MediatorError.self) { try mediator.call("Catalog", "book", ["id": 1], as: Book.self) }
        #expect(error?.description == "Catalog/book refused: sign in first")
        #expect(try mediator.catalogTitle(1) == "Book 1")  // other actions pass
        signedIn.append(true)
        #expect(try mediator.call("Catalog", "book", ["id": 1]) == Book(id: 1, title: "Untitled"))

        signedIn.append(false)
        gate.dispose()
        #expect(try mediator.call("Catalog", "book", ["id": 1]) == Book(id: 1, title: "Untitled"))
    }

    @Test func anInterceptorCanAnswerInsteadOfTheTarget() throws {
        mediator.addInterceptor { call in call.target == "Login" ? .respond("login page") : .proceed }
        #expect(try mediator.call("Login", "page") == "login page")  // no such target: answered first
    }

    @Test func interceptorsRunInTheOrderAdded() throws {
        let order = Recorder<Int>()
        for index in 0..<3 {
            mediator.addInterceptor { _ in
                order.append(index)
                return .proceed
            }
        }
        _ = try mediator.catalogTitle(1)
        #expect(order.values == [0, 1, 2])
    }

    @Test func aTargetCanBeOverriddenWithinAScope() throws {
        try mediator.withTarget(StubCatalog.self, as: "Catalog") {
            #expect(try mediator.catalogTitle(1) == "Stub")
            try mediator.withTarget(LenientTarget.self, as: "Catalog") { () throws in
                #expect(try mediator.call("Catalog", "title") == "lenient title")
            }
            #expect(try mediator.catalogTitle(1) == "Stub")
        }
        #expect(try mediator.catalogTitle(1) == "Book 1")
        // A name nobody registered, only for the scope.
        try mediator.withTarget(StubCatalog.self) { () throws in
            #expect(try mediator.call("StubCatalog", "title") == "Stub")
        }
        #expect(!mediator.hasTarget("StubCatalog"))
    }

    @Test func anAsyncScopeOverridesToo() async throws {
        try await mediator.withTarget(StubCatalog.self, as: "Catalog") { () async throws in
            await Task.yield()
            #expect(try await mediator.callAsync("Catalog", "title") == "Stub")
        }
        #expect(try mediator.catalogTitle(2) == "Book 2")
    }

    @Test func aRecordingSeesEveryCallUntilDisposed() throws {
        mediator.addInterceptor { _ in .refuse(reason: "closed") }
        let recording = mediator.recordCalls()
        _ = try? mediator.catalogTitle(3)
        _ = try? mediator.call("Shop", "page", ["id": 1], as: String.self)
        recording.dispose()
        _ = try? mediator.catalogTitle(4)
        #expect(recording.calls.map { "\($0.target)/\($0.action)" } == ["Catalog/title", "Shop/page"])
        #expect(recording.calls.first?.parameters["id"] as? Int == 3)
    }
}
