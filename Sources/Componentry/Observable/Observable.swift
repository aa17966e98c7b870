public import Foundation

/// A value that tells its observers when it changes.
///
/// Create one with the initial value, observe it, set it:
///
/// ```swift
/// let selectedDate = Observable(Date())
/// let observation = selectedDate.observe().didChange { new, old in
///     print("from", old, "to", new)
/// }
/// selectedDate.value = .now          // prints before the set returns
/// observation.dispose()
/// ```
///
/// ## Changes
/// A set fires only for a new value: by default an `Equatable` value equal to the current
/// one, or the very instance already held, is dropped (see ``ChangeFilter`` to choose).
/// Each change reaches will-change observers with the new value, then becomes the value,
/// then reaches did-change observers with the new and the old value. ``update(_:)``
/// changes the value in place, atomically. A ``CommitTiming`` can debounce or throttle
/// sets; a ``StoragePolicy`` can store copies of class instances.
///
/// ## Threads
/// Any thread may read, set and observe. Observers run on the thread that delivers the
/// change — the setting thread, unless they asked for a queue or the main actor — and
/// never while a lock is held. One thread at a time delivers an observable's changes, so
/// every observer hears them in commit order; a set made while a change is being
/// delivered (from inside an observer, or on another thread) is committed after it and
/// delivered by the thread already delivering, which never deadlocks. Until then
/// ``value`` returns the value being delivered.
///
/// ## Publishing
/// Keep the observable private and publish its ``readOnly`` face, which can be read and
/// observed but not set.
///
/// ## Cost
/// In steady state, a set without timing takes the lock once, allocates nothing, and
/// calls each observer directly. Observing and disposing replace the observer list, a
/// copy of O(observers).
///
/// With `import Observation` (or SwiftUI) in the same file, write `Componentry.Observable`:
/// that module's `Observable` protocol has the same name.
public final class Observable<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `storage` is read and written only under `core`'s lock.

    @usableFromInline let core = ObservableCore()
    @usableFromInline let storage: UnsafeMutablePointer<Storage>
    @usableFromInline let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    @usableFromInline let copy: (@Sendable (Value) -> Value)?
    @usableFromInline let timing: CommitTiming

    /// The values an observable holds.
    @usableFromInline
    struct Storage {
        /// The value delivered last (or being delivered): what ``value`` returns.
        @usableFromInline var current: Value
        /// Changes committed while another was being delivered, oldest first.
        @usableFromInline var queued: ContiguousArray<Value> = []
        /// Timed commits: the value set last, not committed yet.
        @usableFromInline var pending: Value?

        @usableFromInline
        init(current: Value) {
            self.current = current
        }

        /// The value committed last, which a new set is compared with.
        @inlinable
        var latest: Value {
            queued.last ?? current
        }
    }

    /// The drainer's next move, decided under the lock.
    @usableFromInline
    enum Step: Sendable {
        case done
        /// Tell will-change observers about a value, then store it.
        case announce(Value, ObservableCore.Observers)
        /// Tell did-change observers about a stored value (new, old).
        case deliver(Value, Value, ObservableCore.Observers)
    }

    @usableFromInline
    init(
        value: Value, isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        copy: (@Sendable (Value) -> Value)?, timing: CommitTiming
    ) {
        self.isDuplicate = isDuplicate
        self.copy = copy
        self.timing = timing
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(current: copy?(value) ?? value))
    }

    /// Creates an observable holding `value`.
    ///
    /// - Parameters:
    ///   - fires: which sets are changes; by default a class instance fires only when it
    ///     is another instance, and a value of any other type on every set.
    ///   - timing: when sets are committed; by default at once.
    @inlinable
    public convenience init(
        _ value: Value, fires: ChangeFilter<Value> = .byIdentityOfClasses, timing: CommitTiming = .immediate
    ) {
        self.init(value: value, isDuplicate: fires.isDuplicate, copy: nil, timing: timing)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    // MARK: Reading and setting

    /// The current value. Setting it commits a change, unless ``ChangeFilter`` calls it a
    /// duplicate, and — without timing and outside a delivery — has told every observer
    /// that runs on this thread when the set returns.
    @inlinable
    public var value: Value {
        get { locked { _ in storage.pointee.current } }
        set { assign(newValue) }
    }

    /// Changes the value in place, atomically: `body` gets the value committed last
    /// (with timing, the one pending), and no other set can come between reading and
    /// writing it.
    ///
    /// ```swift
    /// items.update { $0.append(item) }
    /// ```
    ///
    /// `body` runs while the observable is locked: it must not touch this observable.
    @inlinable
    public func update(_ body: (inout Value) -> Void) {
        guard case .immediate = timing else {
            return hold { current in
                var value = current
                body(&value)
                return prepared(value)
            }
        }
        drain(
            from: locked { state in
                var value = storage.pointee.latest
                body(&value)
                return accept(prepared(value), &state)
            })
    }

    /// A face of this observable that can be read and observed but not set.
    ///
    /// ```swift
    /// private let date = Observable(Date())
    /// var selectedDate: ReadOnlyObservable<Date> { date.readOnly }
    /// ```
    public var readOnly: ReadOnlyObservable<Value> {
        ReadOnlyObservable(self)
    }

    // MARK: Observing

    /// Starts an observation; finish it with ``ObserverBuilder/didChange(_:)`` or
    /// ``ObserverBuilder/willChange(_:)``.
    public func observe() -> ObserverBuilder<Value> {
        ObserverBuilder(observable: self)
    }

    func attach(_ node: ObserverNode, initial: Bool) -> AnyDisposable {
        if initial {
            insertCatchingUp(node)
        } else {
            core.insert(node)
        }
        return AnyDisposable { [core] in core.remove(node) }
    }

    /// Calls `node` with the current value, then inserts it. A value stored while the call
    /// ran (by another thread) is given to it as a change first, so it hears every value
    /// from the initial one on, in order, once.
    private func insertCatchingUp(_ node: ObserverNode) {
        var (seen, version) = locked { state in (storage.pointee.current, state.version) }
        _ = withUnsafePointer(to: seen) { node.deliver(new: $0, old: $0) }
        while let missed = locked({ state -> Value? in
            guard state.version != version else {
                state.insert(node)
                return nil
            }
            version = state.version
            return storage.pointee.current
        }) {
            _ = withUnsafePointer(to: missed) { new in withUnsafePointer(to: seen) { node.deliver(new: new, old: $0) } }
            seen = missed
        }
    }

    // MARK: Committing and delivering

    /// Runs `body` under the lock and returns its result.
    @inlinable
    func locked<Result: Sendable>(_ body: (inout ObservableCore.State) -> Result) -> Result {
        core.withLock(body)
    }

    @inlinable
    func prepared(_ value: Value) -> Value {
        copy?(value) ?? value
    }

    @inlinable
    func assign(_ newValue: Value) {
        let value = prepared(newValue)
        guard case .immediate = timing else { return hold { _ in value } }
        drain(from: locked { accept(value, &$0) })
    }

    /// Under the lock: drops a duplicate, queues a change while another is being
    /// delivered, or makes the caller the drainer and returns its first step.
    @inlinable
    func accept(_ value: Value, _ state: inout ObservableCore.State) -> Step {
        if let isDuplicate, isDuplicate(storage.pointee.latest, value) { return .done }
        if core.startDraining() { return begin(value, &state) }
        storage.pointee.queued.append(value)
        if core.markQueued() { return .done }
        return begin(storage.pointee.queued.removeFirst(), &state)
    }

    @inlinable
    func begin(_ value: Value, _ state: inout ObservableCore.State) -> Step {
        guard state.hasWillObservers else { return store(value, &state) }
        return .announce(value, state.take(state.willObservers))
    }

    @inlinable
    func store(_ value: Value, _ state: inout ObservableCore.State) -> Step {
        let old = storage.pointee.current
        storage.pointee.current = value
        state.version &+= 1
        return .deliver(value, old, state.take(state.didObservers))
    }

    /// Delivers changes until none is queued; every step's observers run without the lock.
    @inlinable
    func drain(from first: Step) {
        var step = first
        while true {
            switch step {
            case .done:
                return
            case .announce(let value, let observers):
                let purge = withUnsafePointer(to: value) { core.notify(observers, new: $0, old: $0) }
                step = locked { state in
                    if purge { state.purgeDeadOwners() }
                    return store(value, &state)
                }
            case .deliver(let value, let old, let observers):
                let purge = withUnsafePointer(to: value) { new in
                    withUnsafePointer(to: old) { core.notify(observers, new: new, old: $0) }
                }
                // Nothing queued: done without the lock.
                if !purge, core.stopDrainingIfNothingQueued() { return }
                step = locked { state in
                    if purge { state.purgeDeadOwners() }
                    guard !storage.pointee.queued.isEmpty else {
                        core.tookQueued(leftEmpty: true, wasLast: true)
                        return .done
                    }
                    let next = storage.pointee.queued.removeFirst()
                    core.tookQueued(leftEmpty: storage.pointee.queued.isEmpty, wasLast: false)
                    return begin(next, &state)
                }
            }
        }
    }
}

extension Observable where Value: Equatable {
    /// Creates an observable holding `value` that fires only for a value not equal to the
    /// current one, unless `fires` says otherwise.
    @inlinable
    public convenience init(
        _ value: Value, fires: ChangeFilter<Value> = .ifNotEqual, timing: CommitTiming = .immediate
    ) {
        self.init(value: value, isDuplicate: fires.isDuplicate, copy: nil, timing: timing)
    }
}

extension Observable where Value: AnyObject & NSCopying {
    /// Creates an observable of a class type that stores instances as `storage` says —
    /// with ``StoragePolicy/copy``, a copy of each one it is given — and fires only for
    /// another instance, unless `fires` says otherwise.
    @inlinable
    public convenience init(
        _ value: Value, storage: StoragePolicy, fires: ChangeFilter<Value> = .ifNewInstance,
        timing: CommitTiming = .immediate
    ) {
        let copy: (@Sendable (Value) -> Value)? =
            switch storage {
            case .keep: nil
            case .copy:
                { value in
                    guard let copy = value.copy(with: nil) as? Value else {
                        preconditionFailure("copy() of \(type(of: value)) is not a \(Value.self)")
                    }
                    return copy
                }
            }
        self.init(value: value, isDuplicate: fires.isDuplicate, copy: copy, timing: timing)
    }
}
