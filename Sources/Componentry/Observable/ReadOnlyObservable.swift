/// The read-only face of an ``Observable``: it reads and observes the value but cannot set
/// it, so a model can publish state that only the model changes.
///
/// ```swift
/// final class DateModel {
///     private let date = Observable(Date())
///     var selectedDate: ReadOnlyObservable<Date> { date.readOnly }
/// }
/// ```
///
/// It is a value wrapping the observable, not a protocol the observable conforms to, so
/// outside code cannot cast it back to a settable observable. Reading and observing it is
/// reading and observing the observable, with the same guarantees.
public struct ReadOnlyObservable<Value: Sendable>: Sendable {
    @usableFromInline let base: Observable<Value>

    init(_ base: Observable<Value>) {
        self.base = base
    }

    /// The current value; see ``Observable/value``.
    @inlinable
    public var value: Value {
        base.value
    }

    /// Starts an observation; see ``Observable/observe()``.
    public func observe() -> ObserverBuilder<Value> {
        base.observe()
    }

    /// The current value and then every change; see ``Observable/values``.
    public var values: AsyncStream<Value> {
        base.values
    }

    /// The current value and then every change, buffered as `bufferingPolicy` says; see
    /// ``Observable/values(bufferingPolicy:)``.
    public func values(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy) -> AsyncStream<Value> {
        base.values(bufferingPolicy: bufferingPolicy)
    }
}
