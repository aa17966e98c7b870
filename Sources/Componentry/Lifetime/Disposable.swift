/// Something that can be ended by hand: a subscription, an observation, a bridge.
///
/// Ending is idempotent: calling ``dispose()`` a second time does nothing. Types that
/// deliver callbacks document what "ended" guarantees; ``Subscription`` guarantees that
/// once `dispose()` returns its handler is never entered again.
public protocol Disposable: Sendable {
    /// Ends the resource. Safe to call more than once and from any thread.
    func dispose()
}

extension Disposable {
    /// Hands this disposable to `bag`, which disposes it when the bag is emptied or
    /// deallocated — typically together with the object that holds the bag.
    ///
    /// ```swift
    /// bus.on(LoginEvent.self).handle { print($0.userID) }.disposed(by: bag)
    /// ```
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

/// A disposable made from a closure that runs once, on the first ``dispose()``.
public struct AnyDisposable: Disposable {
    private let action: OnceAction

    /// Creates a disposable that runs `action` the first time it is disposed.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = OnceAction(action)
    }

    public func dispose() {
        action.run()
    }
}
