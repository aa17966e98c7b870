import Componentry
import Foundation
import Testing

@Suite("Mediator threading")
struct MediatorThreadingTests {
    /// Eight threads register targets under names of their own, call them, call a shared
    /// cached target and add and remove interceptors. Every call must return its own
    /// result, every registration land once, and the cached target be created once.
    @Test func stressEightThreadsRegisterResolveAndCall() async throws {
        let mediator = Mediator()
        try mediator.register(HeldTarget.self, as: "Shared", caching: .cached)
        let threads = 8
        let rounds = 200
        let wrong = Counter()
        let shared = Recorder<ObjectIdentifier>()

        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    await runOnThread {
                        for round in 0..<rounds {
                            let name = "Catalog \(thread)-\(round)"
                            if (try? mediator.register(CatalogTarget.self, as: name)) == nil { wrong.increment() }
                            let title: String? = try? mediator.call(name, "title", ["id": round])
                            if title != "Book \(round)" { wrong.increment() }
                            if let instance: HeldTarget = try? mediator.call("Shared", "self") {
                                shared.append(ObjectIdentifier(instance))
                            }
                            let interceptor = mediator.addInterceptor { _ in .proceed }
                            interceptor.dispose()
                        }
                    }
                }
            }
        }
        #expect(wrong.count == 0)
        #expect(shared.count == threads * rounds)
        #expect(Set(shared.values).count == 1)
        #expect(mediator.hasTarget("Catalog 7-199"))
    }

    /// Concurrent first calls of a cached target share one instance.
    @Test func aCachedTargetIsCreatedAtomically() async {
        for _ in 0..<20 {
            let mediator = Mediator()
            try? mediator.register(HeldTarget.self, caching: .cached)
            let seen = Recorder<HeldTarget>()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        await runOnThread {
                            if let instance: HeldTarget = try? mediator.call("Held", "self") { seen.append(instance) }
                        }
                    }
                }
            }
            #expect(seen.count == 8)
            #expect(seen.values.allSatisfy { $0 === seen.values[0] })
        }
    }
}
