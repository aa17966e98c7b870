import Componentry
import Foundation
import Testing

@Suite("Mediator target caching")
struct MediatorCachingTests {
    let mediator = Mediator()

    private func instance() throws -> HeldTarget {
        try mediator.call("Held", "self")
    }

    @Test func aNewTargetForEveryCallByDefault() throws {
        try mediator.register(HeldTarget.self)
        let instances = try (0..<3).map { _ in try instance() }
        #expect(instances[0] !== instances[1] && instances[1] !== instances[2] && instances[0] !== instances[2])
    }

    @Test func aCachedTargetIsCreatedOnceUntilReleased() throws {
        try mediator.register(HeldTarget.self, caching: .cached)
        let first = try instance()
        #expect(try instance() === first)
        mediator.releaseCachedTarget("Held")
        #expect(try instance() !== first)
    }

    @Test func anOwnedTargetIsHeldWhileItsOwnerLives() throws {
        var owner: NSObject? = NSObject()
        try mediator.register(HeldTarget.self, caching: .owned(by: owner!))
        var first: HeldTarget? = try instance()
        weak let released = first
        #expect(try instance() === first)
        first = nil
        #expect(released != nil)  // the mediator holds it for the owner

        owner = nil
        let later = try instance()
        #expect(released == nil)  // the first call after the owner went released it
        #expect(try instance() !== later)  // and each call now gets its own
    }
}

/// A target whose action returns the instance that ran it.
final class HeldTarget: MediatorTarget {
    static let name = "Held"

    init(mediator: Mediator) {}

    static func registerActions(in table: inout MediatorActionTable<HeldTarget>) {
        table.action("self") { target, _ in target }
    }
}
