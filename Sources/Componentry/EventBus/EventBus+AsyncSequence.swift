extension EventBus {
    /// How many events ``events(of:subTypes:bufferingPolicy:)`` keeps, by default, for a
    /// loop that has not taken them yet.
    public static let defaultEventBufferSize = 1_000

    /// The events of `type` as an asynchronous sequence, for `for await` loops.
    ///
    /// The subscription starts when this is called and ends when the loop's task is
    /// cancelled or the sequence is dropped. Events are buffered until the loop takes
    /// them: by default the newest ``defaultEventBufferSize`` are kept and older ones
    /// dropped, so a loop that stalls cannot make the buffer grow without limit; pass
    /// `bufferingPolicy` to choose another bound.
    ///
    /// ```swift
    /// for await bill in bus.events(of: BillCreated.self) {
    ///     print(bill.amount)
    /// }
    /// ```
    public func events<Event: BusEvent>(
        of type: Event.Type,
        subTypes: Set<String>? = nil,
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .bufferingNewest(defaultEventBufferSize)
    ) -> AsyncStream<Event> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            var builder = on(type)
            if let subTypes { builder = builder.subTypes(subTypes) }
            let subscription = builder.handle { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}
