public import Dispatch

/// An ``ObserverBuilder`` bound to an owner: the observation ends when the owner is
/// deallocated, and the callback gets the owner as its first parameter, so it never needs
/// to capture it.
///
/// ```swift
/// final class DateLabel: LifetimeOwner {
///     init(model: DateModel) {
///         observe(model.selectedDate).didChange { label, date, _ in label.render(date) }
///     }
///     func render(_ date: Date) {}
/// }
/// ```
///
/// The observable holds the owner weakly, and the callback holds what it captures
/// strongly: a callback that still needs another object that may hold the owner captures
/// it with `[weak object]`. While the callback runs, the owner is held, so it stays alive.
public struct OwnedObserverBuilder<Owner: AnyObject, Value: Sendable>: Sendable {
    @usableFromInline var base: ObserverBuilder<Value>

    /// See ``ObserverBuilder/initial()``.
    public func initial() -> Self { Self(base: base.initial()) }

    /// See ``ObserverBuilder/on(_:)``.
    public func on(_ queue: DispatchQueue) -> Self { Self(base: base.on(queue)) }

    /// See ``ObserverBuilder/onMainActor()``.
    public func onMainActor() -> MainActorOwnedObserverBuilder<Owner, Value> {
        MainActorOwnedObserverBuilder(base: self)
    }

    /// Observes changes after they are made: `handler` gets the owner, the new and the old
    /// value. The result may be ignored, as the owner bounds the observation's lifetime.
    @inlinable @discardableResult
    public func didChange(
        _ handler: @escaping @Sendable (_ owner: Owner, _ new: Value, _ old: Value) -> Void
    ) -> AnyDisposable {
        // The observable calls callbacks of owned observations only with their (live) owner.
        base.attach(
            .didChange, { owner, new, old in handler(Self.cast(owner), new, old) },
            posting: { owner, new, old in
                handler(Self.cast(owner), new.assumingMemoryBound(to: Value.self).pointee, old.assumingMemoryBound(to: Value.self).pointee)
            })
    }

    /// Observes changes before they are made: `handler` gets the owner and the new value;
    /// see ``ObserverBuilder/willChange(_:)``.
    @inlinable @discardableResult
    public func willChange(_ handler: @escaping @Sendable (_ owner: Owner, _ new: Value) -> Void) -> AnyDisposable {
        base.attach(
            .willChange, { owner, new, _ in handler(Self.cast(owner), new) },
            posting: { owner, new, _ in
                handler(Self.cast(owner), new.assumingMemoryBound(to: Value.self).pointee)
            })
    }

    @inlinable
    static func cast(_ owner: AnyObject?) -> Owner {
        unsafeDowncast(owner.unsafelyUnwrapped, to: Owner.self)
    }
}

/// An ``OwnedObserverBuilder`` whose callback runs on the main actor.
public struct MainActorOwnedObserverBuilder<Owner: AnyObject, Value: Sendable>: Sendable {
    var base: OwnedObserverBuilder<Owner, Value>

    /// See ``ObserverBuilder/initial()``.
    public func initial() -> Self { Self(base: base.initial()) }

    /// Observes changes after they are made, on the main actor; see
    /// ``OwnedObserverBuilder/didChange(_:)``.
    @discardableResult
    public func didChange(
        _ handler: @escaping @MainActor @Sendable (_ owner: Owner, _ new: Value, _ old: Value) -> Void
    ) -> AnyDisposable {
        base.base.attach(
            .didChange,
            delivery: .mainActor { owner, new, old in
                handler(OwnedObserverBuilder<Owner, Value>.cast(owner), new, old)
            })
    }

    /// Observes changes before they are made, on the main actor; see
    /// ``OwnedObserverBuilder/willChange(_:)``.
    @discardableResult
    public func willChange(_ handler: @escaping @MainActor @Sendable (_ owner: Owner, _ new: Value) -> Void) -> AnyDisposable {
        base.base.attach(
            .willChange,
            delivery: .mainActor { owner, new, _ in
                handler(OwnedObserverBuilder<Owner, Value>.cast(owner), new)
            })
    }
}
