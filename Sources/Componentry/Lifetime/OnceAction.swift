import Locking

/// A closure that runs at most once, whichever thread asks first.
final class OnceAction: Sendable {
    private let action: Locked<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    /// Runs the closure if it has not run yet; later calls do nothing.
    func run() {
        let pending = action.withLock { action in
            defer { action = nil }
            return action
        }
        pending?()
    }
}
