import Componentry
import Foundation
import Testing

@Suite("Mediator fallbacks")
struct MediatorFallbackTests {
    let mediator = Mediator()

    init() throws {
        try mediator.register(CatalogTarget.self)
        try mediator.register(LenientTarget.self)
    }

    @Test func theTargetsOwnHandlerAnswersFirst() throws {
        let fallbacks = Counter()
        mediator.fallback = { _, _ in
            fallbacks.increment()
            return "global"
        }
        #expect(try mediator.call("Lenient", "unknown") == "lenient unknown")
        #expect(try mediator.call("Lenient", "known") == "known")
        #expect(fallbacks.count == 0)
    }

    @Test func theGlobalFallbackAnswersForMissingTargetsAndUnhandledActions() throws {
        let seen = Recorder<String>()
        mediator.fallback = { call, error in
            seen.append("\(call.target)/\(call.action): \(error)")
            return "placeholder"
        }
        #expect(try mediator.call("Shop", "page") == "placeholder")
        #expect(try mediator.call("Catalog", "missing") == "placeholder")
        #expect(seen.values == [#"Shop/page: no target "Shop""#, #"Catalog/missing: target "Catalog" has no action "missing""#])
    }

    @Test func aFallbackCanRethrow() {
        mediator.fallback = { _, error in throw error }
        #expect(throws: MediatorError.self) { try mediator.call("Shop", "page", as: String.self) }
        mediator.fallback = nil
        #expect(throws: MediatorError.self) { try mediator.call("Shop", "page", as: String.self) }
    }

    @Test func notExposedIsNotAFallbackCase() {
        mediator.fallback = { _, _ in "placeholder" }
        #expect(throws: MediatorError.self) { try mediator.call(URL(string: "tally://Catalog/title?id=1")!, as: String.self) }
    }
}
