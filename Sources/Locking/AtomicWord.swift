#if canImport(Darwin) || TALLY_PORTABLE_SYNCHRONIZATION
    public import CLocking

    /// A value that fits in a machine word, read and written atomically from any thread:
    /// the part of `Synchronization.Atomic` the package's modules use.
    ///
    /// This is the build for Apple platforms. `Synchronization.Atomic`, what Linux builds
    /// use, needs iOS 18, macOS 15, tvOS 18, watchOS 11 or visionOS 2, and the package's
    /// floors are iOS 15, macOS 12, tvOS 15, watchOS 8 and visionOS 1; no package
    /// dependency (such as swift-atomics) is allowed either, because an app that links the
    /// package must fetch nothing else. So the word lives in an allocation of its own, at
    /// an address that never changes, and every operation is a `static inline` C function
    /// of the `CLocking` target over the compiler's `__atomic` builtins; inlined, with the
    /// ordering a constant, each is the instruction `Atomic` would use, with the same
    /// memory ordering.
    ///
    /// Linux builds with `-DTALLY_PORTABLE_SYNCHRONIZATION` compile this version too, so
    /// that it is built and tested where Apple platforms are not available.
    public struct AtomicWord<Value: AtomicWordValue>: ~Copyable {
        @usableFromInline let word: UnsafeMutablePointer<UInt64>

        /// Creates an atomic holding `initialValue`.
        @inlinable
        public init(_ initialValue: Value) {
            word = .allocate(capacity: 1)
            word.initialize(to: initialValue.atomicWord)
        }

        deinit {
            word.deallocate()
        }

        /// The value now.
        @inlinable @inline(__always)
        public func load(ordering: AtomicWordLoadOrdering) -> Value {
            Value(atomicWord: clocking_atomic_load(word, ordering.order))
        }

        /// Replaces the value with `desired`.
        @inlinable @inline(__always)
        public func store(_ desired: Value, ordering: AtomicWordStoreOrdering) {
            clocking_atomic_store(word, desired.atomicWord, ordering.order)
        }

        /// Replaces the value with `desired` and returns the value it replaced.
        @inlinable @inline(__always)
        public func exchange(_ desired: Value, ordering: AtomicWordUpdateOrdering) -> Value {
            Value(atomicWord: clocking_atomic_exchange(word, desired.atomicWord, ordering.order))
        }

        /// Replaces the value with `desired` if it is `expected`. Returns whether it did, and
        /// the value found. `ordering` applies when the exchange is made; when it is not,
        /// the load has the strongest ordering a load can have among those `ordering`
        /// implies (as `Synchronization.Atomic` does).
        @inlinable @inline(__always)
        public func compareExchange(
            expected: Value, desired: Value, ordering: AtomicWordUpdateOrdering
        ) -> (exchanged: Bool, original: Value) {
            var found = expected.atomicWord
            let exchanged = clocking_atomic_compare_exchange(word, &found, desired.atomicWord, ordering.order, ordering.failureOrder)
            return (exchanged, Value(atomicWord: found))
        }
    }

    extension AtomicWord where Value == UInt64 {
        /// Adds `operand`, wrapping around on overflow, and returns the values before and
        /// after the addition.
        @inlinable @inline(__always)
        public func wrappingAdd(_ operand: UInt64, ordering: AtomicWordUpdateOrdering) -> (oldValue: UInt64, newValue: UInt64) {
            let old = clocking_atomic_fetch_add(word, operand, ordering.order)
            return (old, old &+ operand)
        }
    }

    extension AtomicWord: @unchecked Sendable where Value: Sendable {}

    /// The memory ordering of an ``AtomicWord`` operation of `Kind`: a load, a store or a
    /// read-modify-write, each with the orderings `Synchronization`'s types of the same names
    /// offer.
    public struct AtomicWordOrdering<Kind>: Sendable {
        /// The `__ATOMIC_*` constant.
        @usableFromInline let order: Int32
        /// The `__ATOMIC_*` constant for a compare-and-exchange that fails, which only loads.
        @usableFromInline let failureOrder: Int32

        @inlinable
        init(order: Int32, failureOrder: Int32? = nil) {
            self.order = order
            self.failureOrder = failureOrder ?? order
        }

        /// No ordering: only the operation itself is atomic.
        @inlinable
        public static var relaxed: Self { Self(order: 0) }
        /// Acquiring and releasing as the operation can, and in one total order with every
        /// other sequentially consistent operation.
        @inlinable
        public static var sequentiallyConsistent: Self { Self(order: 5) }
    }

    /// The kinds of ``AtomicWordOrdering``.
    public enum AtomicWordLoad {}
    /// The kinds of ``AtomicWordOrdering``.
    public enum AtomicWordStore {}
    /// The kinds of ``AtomicWordOrdering``.
    public enum AtomicWordUpdate {}

    /// The memory ordering of an ``AtomicWord`` load.
    public typealias AtomicWordLoadOrdering = AtomicWordOrdering<AtomicWordLoad>
    /// The memory ordering of an ``AtomicWord`` store.
    public typealias AtomicWordStoreOrdering = AtomicWordOrdering<AtomicWordStore>
    /// The memory ordering of an ``AtomicWord`` read-modify-write operation.
    public typealias AtomicWordUpdateOrdering = AtomicWordOrdering<AtomicWordUpdate>

    extension AtomicWordOrdering where Kind == AtomicWordLoad {
        /// Sees every write made before the release that stored the value loaded.
        @inlinable
        public static var acquiring: Self { Self(order: 2) }
    }

    extension AtomicWordOrdering where Kind == AtomicWordStore {
        /// Publishes every write made before it to a thread whose acquiring load sees it.
        @inlinable
        public static var releasing: Self { Self(order: 3) }
    }

    extension AtomicWordOrdering where Kind == AtomicWordUpdate {
        /// The read acquires.
        @inlinable
        public static var acquiring: Self { Self(order: 2) }
        /// The write releases; a failed compare-and-exchange, which only reads, is relaxed.
        @inlinable
        public static var releasing: Self { Self(order: 3, failureOrder: 0) }
        /// The read acquires and the write releases.
        @inlinable
        public static var acquiringAndReleasing: Self { Self(order: 4, failureOrder: 2) }
    }
#else
    public import Synchronization

    /// A value that fits in a machine word, read and written atomically from any thread:
    /// the part of `Synchronization.Atomic` the package's modules use.
    ///
    /// This is the build for Linux: an `Atomic<UInt64>` holding the value's word, with every
    /// operation transparent, so that a call compiles to what a call of `Atomic` does. Apple
    /// platforms (and Linux with `-DTALLY_PORTABLE_SYNCHRONIZATION`) build another, with
    /// the same API, on C atomics available below iOS 18, where `Atomic` is not.
    public struct AtomicWord<Value: AtomicWordValue>: ~Copyable {
        @usableFromInline let base: Atomic<UInt64>

        /// Creates an atomic holding `initialValue`.
        @_transparent
        public init(_ initialValue: Value) {
            base = Atomic(initialValue.atomicWord)
        }

        /// The value now.
        @_semantics("atomics.requires_constant_orderings") @_transparent
        public func load(ordering: AtomicWordLoadOrdering) -> Value {
            Value(atomicWord: base.load(ordering: ordering))
        }

        /// Replaces the value with `desired`.
        @_semantics("atomics.requires_constant_orderings") @_transparent
        public func store(_ desired: Value, ordering: AtomicWordStoreOrdering) {
            base.store(desired.atomicWord, ordering: ordering)
        }

        /// Replaces the value with `desired` and returns the value it replaced.
        @_semantics("atomics.requires_constant_orderings") @_transparent
        public func exchange(_ desired: Value, ordering: AtomicWordUpdateOrdering) -> Value {
            Value(atomicWord: base.exchange(desired.atomicWord, ordering: ordering))
        }

        /// Replaces the value with `desired` if it is `expected`. Returns whether it did, and
        /// the value found.
        @_semantics("atomics.requires_constant_orderings") @_transparent
        public func compareExchange(
            expected: Value, desired: Value, ordering: AtomicWordUpdateOrdering
        ) -> (exchanged: Bool, original: Value) {
            let (exchanged, original) = base.compareExchange(expected: expected.atomicWord, desired: desired.atomicWord, ordering: ordering)
            return (exchanged, Value(atomicWord: original))
        }
    }

    extension AtomicWord where Value == UInt64 {
        /// Adds `operand`, wrapping around on overflow, and returns the values before and
        /// after the addition.
        @_semantics("atomics.requires_constant_orderings") @_transparent
        public func wrappingAdd(_ operand: UInt64, ordering: AtomicWordUpdateOrdering) -> (oldValue: UInt64, newValue: UInt64) {
            base.wrappingAdd(operand, ordering: ordering)
        }
    }

    extension AtomicWord: Sendable where Value: Sendable {}

    /// The memory ordering of an ``AtomicWord`` load.
    public typealias AtomicWordLoadOrdering = AtomicLoadOrdering
    /// The memory ordering of an ``AtomicWord`` store.
    public typealias AtomicWordStoreOrdering = AtomicStoreOrdering
    /// The memory ordering of an ``AtomicWord`` read-modify-write operation.
    public typealias AtomicWordUpdateOrdering = AtomicUpdateOrdering
#endif

/// A value an ``AtomicWord`` can hold, converted to and from the 64-bit word it stores.
public protocol AtomicWordValue {
    /// The value as the word stored.
    var atomicWord: UInt64 { get }
    /// The value a stored word holds.
    init(atomicWord: UInt64)
}

extension Bool: AtomicWordValue {
    /// 1 for `true`, 0 for `false`.
    @inlinable
    public var atomicWord: UInt64 { self ? 1 : 0 }
    /// `true` for any word but 0.
    @inlinable
    public init(atomicWord: UInt64) { self = atomicWord != 0 }
}

extension Int: AtomicWordValue {
    /// The value's bits, sign-extended to 64.
    @inlinable
    public var atomicWord: UInt64 { UInt64(truncatingIfNeeded: self) }
    /// The word's low bits.
    @inlinable
    public init(atomicWord: UInt64) { self.init(truncatingIfNeeded: atomicWord) }
}

extension UInt: AtomicWordValue {
    /// The value, zero-extended to 64 bits.
    @inlinable
    public var atomicWord: UInt64 { UInt64(truncatingIfNeeded: self) }
    /// The word's low bits.
    @inlinable
    public init(atomicWord: UInt64) { self.init(truncatingIfNeeded: atomicWord) }
}

extension UInt64: AtomicWordValue {
    /// The value itself.
    @inlinable
    public var atomicWord: UInt64 { self }
    /// The word itself.
    @inlinable
    public init(atomicWord: UInt64) { self = atomicWord }
}
