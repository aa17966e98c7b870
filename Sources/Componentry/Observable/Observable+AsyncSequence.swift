extension Observable {
    /// How many values ``values`` keeps, by default, for a loop that has not taken them yet.
    public static var defaultValueBufferSize: Int { 1_000 }

    /// The current value, then every change, as an asynchronous sequence for `for await`
    /// loops.
    ///
    /// The observation starts when this is read and ends when the loop's task is
    /// cancelled or the sequence is dropped. Values are buffered until the loop takes
    /// them, in commit order: the newest ``defaultValueBufferSize`` are kept and older
    /// ones dropped, so a loop that stalls cannot make the buffer grow without limit (see
    /// ``values(bufferingPolicy:)`` to choose another bound).
    ///
    /// ```swift
    /// for await date in model.selectedDate.values {
    ///     render(date)
    /// }
    /// ```
    public var values: AsyncStream<Value> {
        values(bufferingPolicy: .bufferingNewest(Self.defaultValueBufferSize))
    }

    /// The current value, then every change, as an asynchronous sequence buffered as
    /// `bufferingPolicy` says; see ``values``.
    public func values(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy) -> AsyncStream<Value> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let observation = observe().initial().didChange { new, _ in continuation.yield(new) }
            continuation.onTermination = { _ in observation.dispose() }
        }
    }
}
