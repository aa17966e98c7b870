extension SyncChannel {
    /// Called with the ``SyncTrace`` of every emit once it is applied, on the main actor;
    /// `nil` (the default) turns tracing off at no cost.
    ///
    /// ```swift
    /// SyncChannel.shared.tracer = { print($0) }
    /// // user[42].followed = true from UserRow(0x…): 2 updated, skipped ProfileCard(0x…)
    /// ```
    public var tracer: (@Sendable (SyncTrace) -> Void)? {
        get { state.withLock { $0.tracer } }
        set { state.withLock { $0.tracer = newValue } }
    }

    /// What the pool holds now: its objects per type and how many identities they have.
    /// Thread-safe; counts entries without touching the objects, in time linear in the
    /// number of identities.
    public func snapshot() -> SyncPoolSnapshot {
        state.withLock { $0.pool.snapshot }
    }
}
