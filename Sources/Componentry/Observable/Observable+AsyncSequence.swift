extension Observable {
    /// The current value, then every change, as an asynchronous sequence for `for await`
    /// loops.
    ///
    /// The observation starts when this is read and ends when the loop's task is
    /// cancelled or the sequence is dropped. Values are buffered until the loop takes
    /// them, so it sees every change in commit order.
    ///
    /// ```swift
    /// for await date in model.selectedDate.values {
    ///     render(date)
    /// }
    /// ```
    public var values: AsyncStream<Value> {
        AsyncStream { continuation in
            let observation = observe().initial().didChange { new, _ in continuation.yield(new) }
            continuation.onTermination = { _ in observation.dispose() }
        }
    }
}
