extension Mediator {
    /// Runs `body` with calls to `name` going to `type` — a stub or a spy — instead of the
    /// target registered under it (or to a target where none is), and restores the
    /// registration when `body` returns or throws.
    ///
    /// ```swift
    /// try mediator.withTarget(StubBookDetail.self, as: "BookDetail") {
    ///     print(try mediator.bookTitle(42))  // the stub's title
    /// }
    /// ```
    ///
    /// The override applies to every call on this mediator while `body` runs, from any
    /// thread; overrides nest. Tests that run in parallel should use a mediator each.
    public func withTarget<Target: MediatorTarget, Result>(
        _ type: Target.Type, as name: String = Target.name, _ body: () throws -> Result
    ) rethrows -> Result {
        let entry = override(name, with: type)
        defer { registry.withLock { $0.removeOverride(entry) } }
        return try body()
    }

    /// Runs the asynchronous `body` with calls to `name` going to `type`; see
    /// ``withTarget(_:as:_:)``.
    public func withTarget<Target: MediatorTarget, Result>(
        _ type: Target.Type, as name: String = Target.name,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        let entry = override(name, with: type)
        defer { registry.withLock { $0.removeOverride(entry) } }
        return try await body()
    }

    private func override<Target: MediatorTarget>(_ name: String, with type: Target.Type) -> TargetEntry {
        let entry = TargetEntry(type, name: name, caching: .perCall)
        registry.withLock { $0.overrides[name, default: []].append(entry) }
        return entry
    }

    /// Starts recording every call this mediator receives — URL calls it refuses included —
    /// before any interceptor sees it; see ``MediatorRecording``.
    public func recordCalls() -> MediatorRecording {
        let recording = MediatorRecording()
        let id = registry.withLock { $0.add { [weak recording] call in recording?.record(call) } }
        recording.stop(
            with: AnyDisposable { [self] in
                registry.withLock { $0.recorders.removeAll { $0.id == id } }
            })
        return recording
    }
}
