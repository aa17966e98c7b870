/// Decides which sets of an ``Observable`` are changes: a set that the filter calls a
/// duplicate of the current value is dropped, and no observer hears of it.
///
/// ```swift
/// let title = Observable("Today")                         // Equatable: skips equal values
/// let user = Observable(session.user, fires: .ifNewInstance)
/// let items = Observable([Item](), fires: .always)
/// let bill = Observable(Bill(), fires: .unless { $0.id == $1.id })
/// ```
///
/// Without a filter, an observable of an `Equatable` type fires only for a value that is
/// not equal to the current one; one of a class type only for another instance (the seed's
/// "new instance" rule); any other type fires on every set.
public struct ChangeFilter<Value: Sendable>: Sendable {
    /// `true` when the second value (the one being set) is a duplicate of the first (the
    /// current one); `nil` lets every set through.
    @usableFromInline
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?

    @inlinable
    init(isDuplicate: (@Sendable (Value, Value) -> Bool)?) {
        self.isDuplicate = isDuplicate
    }

    /// Every set is a change, even of an equal value or the same instance.
    public static var always: Self {
        Self(isDuplicate: nil)
    }

    /// A set is dropped when `isDuplicate(current, new)` is `true`. The closure runs while
    /// the observable is locked: it must not touch the observable.
    @inlinable
    public static func unless(
        _ isDuplicate: @escaping @Sendable (_ current: Value, _ new: Value) -> Bool
    ) -> Self {
        Self(isDuplicate: isDuplicate)
    }

    /// The default for a type that is not `Equatable`: class instances fire only when the
    /// instance is another one; values of any other type fire on every set.
    @usableFromInline
    static var byIdentityOfClasses: Self {
        guard Value.self is AnyObject.Type else { return .always }
        return Self { ObjectIdentifier(unsafeBitCast($0, to: AnyObject.self)) == ObjectIdentifier(unsafeBitCast($1, to: AnyObject.self)) }
    }
}

extension ChangeFilter where Value: Equatable {
    /// A set is a change only when the value is not equal (`==`) to the current one.
    @inlinable
    public static var ifNotEqual: Self {
        Self { $0 == $1 }
    }
}

extension ChangeFilter where Value: AnyObject {
    /// A set is a change only when it brings another instance (`!==`), however equal.
    @inlinable
    public static var ifNewInstance: Self {
        Self { $0 === $1 }
    }
}
