/// The value a ``Synced`` property holds and where its last change came from: what the
/// property's observers receive, as new and old value.
///
/// ```swift
/// row.$likes.observe().didChange { new, old in
///     print(old.value, "->", new.value, new.origin.isLocal ? "(mine)" : "(synced)")
/// }
/// ```
public struct SyncedValue<Value: Sendable>: Sendable {
    /// The property's value.
    public let value: Value
    /// Where the change that set ``value`` came from; ``SyncOrigin/local`` for the
    /// initial value.
    public let origin: SyncOrigin

    /// A value with its origin.
    @inlinable
    public init(_ value: Value, origin: SyncOrigin) {
        self.value = value
        self.origin = origin
    }
}

extension SyncedValue: Equatable where Value: Equatable {}
