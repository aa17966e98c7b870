#if canImport(Darwin) || TALLY_PORTABLE_SYNCHRONIZATION
    // Public: the lock's type and calls are in inlinable code.
    #if canImport(Darwin)
        public import Darwin
    #elseif canImport(Glibc)
        public import Glibc
    #elseif canImport(Musl)
        public import Musl
    #endif

    /// A value and the lock that guards it, shared by this repository's modules (the server
    /// package's too; the product is not meant for apps).
    ///
    /// This is the build for Apple platforms. `Synchronization.Mutex`, what Linux builds
    /// use, needs iOS 18, macOS 15, tvOS 18, watchOS 11 or visionOS 2, and the package's
    /// floors are iOS 15, macOS 12, tvOS 15, watchOS 8 and visionOS 1; no package
    /// dependency (such as swift-nio's `NIOLock`) is allowed either, because an app that
    /// links the package must fetch nothing else. So the lock is an `os_unfair_lock`
    /// (iOS 10), what `Mutex` itself locks with on Apple platforms, and it and the value
    /// live in one allocation of their own, at an address that never changes, as the lock
    /// requires. ThreadSanitizer intercepts `os_unfair_lock`, so no extra edge is needed.
    ///
    /// Linux builds with `-DTALLY_PORTABLE_SYNCHRONIZATION` compile this version, with a
    /// `pthread_mutex_t` in place of the `os_unfair_lock` (the one difference), so that
    /// it is built and tested where Apple platforms are not available.
    ///
    /// Public and inlinable, not `package`, so that other modules get ``withLock(_:)``
    /// specialized: the compiler serializes no `package` body, and the generic entry point
    /// instantiated its closure types' metadata on every call. An `EventBus` post to one
    /// subscriber measured 77 to 84 ns through it, 19 ns specialized.
    public struct Locked<Value: ~Copyable>: ~Copyable {
        #if canImport(Darwin)
            @usableFromInline typealias Primitive = os_unfair_lock
        #else
            @usableFromInline typealias Primitive = pthread_mutex_t
        #endif

        /// The lock, followed by the value at ``valueOffset``.
        @usableFromInline let storage: UnsafeMutableRawPointer

        /// Where the value starts: after the lock, at the value's alignment.
        @inlinable
        static var valueOffset: Int {
            let alignment = MemoryLayout<Value>.alignment
            return (MemoryLayout<Primitive>.size + alignment - 1) / alignment * alignment
        }

        @inlinable
        var lock: UnsafeMutablePointer<Primitive> {
            storage.assumingMemoryBound(to: Primitive.self)
        }

        @inlinable
        var value: UnsafeMutablePointer<Value> {
            (storage + Self.valueOffset).assumingMemoryBound(to: Value.self)
        }

        /// Creates a lock guarding `value`.
        @inlinable
        public init(_ value: consuming sending Value) {
            storage = .allocate(
                byteCount: Self.valueOffset + MemoryLayout<Value>.size,
                alignment: max(MemoryLayout<Primitive>.alignment, MemoryLayout<Value>.alignment)
            )
            let lock = storage.bindMemory(to: Primitive.self, capacity: 1)
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                let status = pthread_mutex_init(lock, nil)
                precondition(status == 0, "pthread_mutex_init failed: \(status)")
            #endif
            (storage + Self.valueOffset).bindMemory(to: Value.self, capacity: 1).initialize(to: value)
        }

        @inlinable
        deinit {
            value.deinitialize(count: 1)
            #if !canImport(Darwin)
                pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
            storage.deallocate()
        }

        /// Runs `body` with exclusive access to the value.
        @inlinable
        public borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
            #else
                pthread_mutex_lock(lock)
                defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }
#else
    public import Synchronization

    /// A `Mutex` whose critical sections ThreadSanitizer can see, shared by this repository's
    /// modules (the server package's too; the product is not meant for apps).
    ///
    /// `Synchronization.Mutex` on Linux locks with futex calls inside the standard library,
    /// which ThreadSanitizer does not instrument, so every access under the lock is reported
    /// as a race. This wrapper adds an acquire load on entry and a release store on exit of
    /// an atomic that lives beside the mutex: ThreadSanitizer sees those as the
    /// happens-before edges the mutex provides. On x86 and ARM both are plain loads and
    /// stores with ordering, adding no measurable cost.
    ///
    /// This is the build for Linux. Apple platforms (and Linux with
    /// `-DTALLY_PORTABLE_SYNCHRONIZATION`) build another, with the same API, on a lock
    /// available below iOS 18, where `Mutex` is not.
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
#endif

extension Locked: @unchecked Sendable where Value: ~Copyable {}
