import Locking

/// A registered target: its actions, how instances are made, and the cached instance.
final class TargetEntry: Sendable {
    let name: String
    let actions: NameTable<MediatorAction>
    let notFound: MediatorAction.NotFound?
    private let make: @Sendable (Mediator) -> any MediatorTarget
    private let caching: TargetCaching
    /// The cached instance; its lock also makes creating it atomic.
    private let cached = Locked<(any MediatorTarget)?>(nil)

    /// Asks `type` for its actions.
    init<Target: MediatorTarget>(_ type: Target.Type, name: String, caching: TargetCaching) {
        var table = MediatorActionTable<Target>()
        Target.registerActions(in: &table)
        self.name = name
        actions = table.actions
        notFound = table.notFound
        make = { Target(mediator: $0) }
        self.caching = caching
    }

    /// The instance for a call through `mediator`: a new one, or the cached one, created by
    /// the first caller while other callers wait (so a target's init must not call its own
    /// target).
    func instance(for mediator: Mediator) -> any MediatorTarget {
        switch caching.kind {
        case .perCall:
            return make(mediator)
        case .owned(let owner) where owner.object == nil:  // the owner is gone: cache no more
            releaseCached()
            return make(mediator)
        case .cached, .owned:
            return cached.withLock { cached in
                if let target = cached { return target }
                let target = make(mediator)
                cached = target
                return target
            }
        }
    }

    /// Drops the cached instance; the next call that needs one creates it.
    func releaseCached() {
        _ = cached.withLock { $0.take() }
    }
}
