public import Dispatch

/// A chainable description of an observation of an ``Observable``; only the callback is
/// required.
///
/// Start one with ``Observable/observe()`` (or ``LifetimeOwner``'s `observe(_:)`
/// to make `self` the owner), set what you need, and end with ``didChange(_:)`` or
/// ``willChange(_:)``:
///
/// ```swift
/// model.selectedDate.observe()
///     .initial()          // called at once with the current value too
///     .on(renderQueue)    // called there instead of on the delivering thread
///     .didChange { new, old in print(old, "->", new) }
/// ```
///
/// ``owner(_:)`` turns it into an ``OwnedObserverBuilder``, whose callback gets the owner
/// as its first parameter.
///
/// Every observation can also be ended by disposing the result, by hand or with a
/// ``DisposeBag``. After `dispose()` returns, its callback is never entered again — a
/// delivery running on another thread is waited for, one queued is dropped — except by
/// the disposing thread itself, so an observer may dispose itself. Only that observer's
/// deliveries are waited for; do not dispose while holding a lock it needs.
///
/// Builders are values: each step returns a changed copy.
public struct ObserverBuilder<Value: Sendable>: Sendable {
    private let observable: Observable<Value>
    private var owner: WeakOwner?
    @usableFromInline var queue: DispatchQueue?
    private var receivesInitial = false

    init(observable: Observable<Value>) {
        self.observable = observable
    }

    /// Binds the observation to `owner`: it ends when `owner` is deallocated, and the
    /// callback, which gets the owner as its first parameter, is never called after that.
    public func owner<Owner: AnyObject>(_ owner: Owner) -> OwnedObserverBuilder<Owner, Value> {
        OwnedObserverBuilder(base: with { $0.owner = WeakOwner(object: owner) })
    }

    /// Calls the callback once at once, with the current value (as both new and old for
    /// ``didChange(_:)``), before any change; the call is delivered as the observation
    /// asks — on this thread, on its queue or on the main actor.
    public func initial() -> Self {
        with { $0.receivesInitial = true }
    }

    /// Calls the callback on `queue`, asynchronously, in commit order even when `queue`
    /// is concurrent. Without it, callbacks run on the thread that delivers the change.
    public func on(_ queue: DispatchQueue) -> Self {
        with { $0.queue = queue }
    }

    /// Calls the callback on the main actor, asynchronously and in commit order; it may
    /// touch main-actor state.
    public func onMainActor() -> MainActorObserverBuilder<Value> {
        MainActorObserverBuilder(base: self)
    }

    /// Observes changes after they are made: `handler` gets the new and the old value.
    ///
    /// The result may be ignored when an owner bounds the observation's lifetime.
    @inlinable @discardableResult
    public func didChange(
        _ handler: @escaping @Sendable (_ new: Value, _ old: Value) -> Void
    ) -> AnyDisposable {
        // Built here, in the caller's module, so that it is specialized for `Value`.
        attach(
            .didChange, { _, new, old in handler(new, old) },
            posting: { _, new, old in
                handler(new.assumingMemoryBound(to: Value.self).pointee, old.assumingMemoryBound(to: Value.self).pointee)
            })
    }

    /// Observes changes before they are made: `handler` gets the new value; when it runs
    /// on the delivering thread, the observable still holds the old one.
    ///
    /// The result may be ignored when an owner bounds the observation's lifetime.
    @inlinable @discardableResult
    public func willChange(_ handler: @escaping @Sendable (_ new: Value) -> Void) -> AnyDisposable {
        attach(
            .willChange, { _, new, _ in handler(new) },
            posting: { _, new, _ in
                handler(new.assumingMemoryBound(to: Value.self).pointee)
            })
    }

    @usableFromInline
    func attach(
        _ kind: ObserverNode.Kind, _ handler: @escaping @Sendable (AnyObject?, Value, Value) -> Void,
        posting: @escaping ObserverNode.Invoker
    ) -> AnyDisposable {
        attach(kind, delivery: queue.map { .queue($0, handler) } ?? .posting(posting))
    }

    func attach(_ kind: ObserverNode.Kind, delivery: ObserverNode.Delivery<Value>) -> AnyDisposable {
        observable.attach(ObserverNode(kind: kind, delivery: delivery, owner: owner), initial: receivesInitial)
    }

    func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

/// An ``ObserverBuilder`` whose callback runs on the main actor.
public struct MainActorObserverBuilder<Value: Sendable>: Sendable {
    var base: ObserverBuilder<Value>

    /// See ``ObserverBuilder/owner(_:)``.
    public func owner<Owner: AnyObject>(_ owner: Owner) -> MainActorOwnedObserverBuilder<Owner, Value> {
        MainActorOwnedObserverBuilder(base: base.owner(owner))
    }

    /// See ``ObserverBuilder/initial()``.
    public func initial() -> Self { Self(base: base.initial()) }

    /// Observes changes after they are made, on the main actor; see
    /// ``ObserverBuilder/didChange(_:)``.
    @discardableResult
    public func didChange(
        _ handler: @escaping @MainActor @Sendable (_ new: Value, _ old: Value) -> Void
    ) -> AnyDisposable {
        base.attach(.didChange, delivery: .mainActor { _, new, old in handler(new, old) })
    }

    /// Observes changes before they are made, on the main actor; see
    /// ``ObserverBuilder/willChange(_:)``.
    @discardableResult
    public func willChange(_ handler: @escaping @MainActor @Sendable (_ new: Value) -> Void) -> AnyDisposable {
        base.attach(.willChange, delivery: .mainActor { _, new, _ in handler(new) })
    }
}
