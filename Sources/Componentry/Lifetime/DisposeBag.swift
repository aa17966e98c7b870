import Locking

/// Collects disposables and disposes all of them at once: when ``dispose()`` is called,
/// or when the bag is deallocated.
///
/// Store a bag in the object whose lifetime should bound a set of subscriptions; when the
/// object goes away, so does the bag, and every subscription in it ends at that moment.
///
/// ```swift
/// final class BillList {
///     private let bag = DisposeBag()
///     init(bus: EventBus) {
///         bus.on(BillCreated.self).handle { print($0.amount) }.disposed(by: bag)
///     }
/// }
/// ```
///
/// A disposable inserted after the bag was emptied by ``dispose()`` is disposed at once,
/// so nothing escapes the bag's lifetime.
public final class DisposeBag: Sendable {
    private let items = Locked<[any Disposable]?>([])

    /// Creates an empty bag.
    public init() {}

    /// Adds `disposable` to the bag, or disposes it at once if the bag was already emptied.
    public func insert(_ disposable: any Disposable) {
        let accepted = items.withLock { items -> Bool in
            guard items != nil else { return false }
            items!.append(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Disposes everything in the bag, in insertion order. Later insertions are disposed
    /// at once.
    public func dispose() {
        let taken = items.withLock { items in
            defer { items = nil }
            return items ?? []
        }
        for disposable in taken { disposable.dispose() }
    }

    deinit {
        dispose()
    }
}
