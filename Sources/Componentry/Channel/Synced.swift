/// A property of a ``Syncable`` model that can be observed, and whose every change says
/// whether it was made here or brought by a ``SyncChannel`` — without key-value coding.
///
/// ```swift
/// final class UserRow: Syncable {
///     @Synced var followed = false
///     …
/// }
///
/// row.$followed.observe().didChange { new, _ in
///     button.isSelected = new.value                 // new.origin: .local or .synced(from:)
/// }
/// ```
///
/// Read and set it like a stored property. The projected value (`$followed`) is a
/// ``ReadOnlyObservable`` of ``SyncedValue``s: the value and the ``SyncOrigin`` of its
/// last change. It is an ``Observable`` underneath, with the same guarantees: observers
/// run on the thread that sets (for a channel's update, the main actor) before the set
/// returns, unless they ask for a queue or the main actor; they may be bound to an owner
/// or a ``DisposeBag``. A set of an equal value (for an `Equatable` type) or of the
/// instance already held (for a class) is not a change.
///
/// A channel's update is reported as synced when the key's binding
/// (``SyncKeyMap/bind(_:to:)``) sets the property itself; a set made by an observer of
/// that update is local again.
@propertyWrapper
public struct Synced<Value: Sendable>: Sendable {
    @usableFromInline let storage: Observable<SyncedValue<Value>>

    /// A property holding `wrappedValue`. Sets fire only for a value not equal to the
    /// current one when `Value` is `Equatable` — checked at run time here, as when the
    /// property is decoded or made in generic code — and otherwise only for a new instance
    /// of a class, or on every set of any other type.
    @inlinable
    public init(wrappedValue: Value) {
        self.init(wrappedValue, fires: Self.filter)
    }

    /// A property holding `wrappedValue`, whose sets fire only for a value not equal to
    /// the current one.
    @inlinable
    public init(wrappedValue: Value) where Value: Equatable {
        self.init(wrappedValue, fires: .unless { $0.value == $1.value })
    }

    @usableFromInline
    init(_ value: Value, fires: ChangeFilter<SyncedValue<Value>>) {
        storage = Observable(SyncedValue(value, origin: .local), fires: fires)
    }

    /// The filter for a `Value` not known to be `Equatable` at compile time.
    @usableFromInline
    static var filter: ChangeFilter<SyncedValue<Value>> {
        if Value.self is any Equatable.Type {
            return .unless { ($0.value as? any Equatable)?.isEqual(to: $1.value) ?? false }
        }
        guard let isDuplicate = ChangeFilter<Value>.byIdentityOfClasses.isDuplicate else { return .always }
        return .unless { isDuplicate($0.value, $1.value) }
    }

    /// The value. Setting it commits a change, reported as ``SyncOrigin/local`` unless a
    /// channel is applying it.
    @inlinable
    public var wrappedValue: Value {
        get { storage.value.value }
        nonmutating set { storage.value = SyncedValue(newValue, origin: ApplyingOrigin.take() ?? .local) }
    }

    /// The value and the origin of its last change, to read and observe.
    public var projectedValue: ReadOnlyObservable<SyncedValue<Value>> {
        storage.readOnly
    }
}
