public import Synchronization

/// A `Mutex` whose critical sections ThreadSanitizer can see, shared by the package's
/// modules. The Locking module is no product: its public face serves those modules only.
///
/// `Synchronization.Mutex` on Linux locks with futex calls inside the standard library,
/// which ThreadSanitizer does not instrument, so every access under the lock is reported
/// as a race. This wrapper adds an acquire load on entry and a release store on exit of
/// an atomic that lives beside the mutex: ThreadSanitizer sees those as the
/// happens-before edges the mutex provides. On x86 and ARM both are plain loads and
/// stores with ordering, adding no measurable cost.
///
/// Public and inlinable, not `package`, so that other modules get ``withLock(_:)``
/// specialized: the compiler serializes no `package` body, and the generic entry point
/// instantiated its closure types' metadata on every call. An `EventBus` post to one
/// subscriber measured 77 to 84 ns through it, 19 ns specialized.
public struct Locked<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>
    @usableFromInline let edge = Atomic<Int>(0)

    /// Creates a lock guarding `value`.
    @inlinable
    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            _ = edge.load(ordering: .acquiring)
            defer { edge.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }
}

extension Locked: @unchecked Sendable where Value: ~Copyable {}
