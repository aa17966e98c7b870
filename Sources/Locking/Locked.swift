import Synchronization

/// A `Mutex` whose critical sections ThreadSanitizer can see; shared by the package's
/// modules (`package` access), part of no module's public API.
///
/// `Synchronization.Mutex` on Linux locks with futex calls inside the standard library,
/// which ThreadSanitizer does not instrument, so every access under the lock is reported
/// as a race. This wrapper adds an acquire load on entry and a release store on exit of
/// an atomic that lives beside the mutex: ThreadSanitizer sees those as the
/// happens-before edges the mutex provides. On x86 and ARM both are plain loads and
/// stores with ordering, adding no measurable cost.
package struct Locked<Value: ~Copyable>: ~Copyable {
    private let mutex: Mutex<Value>
    private let edge = Atomic<Int>(0)

    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
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
