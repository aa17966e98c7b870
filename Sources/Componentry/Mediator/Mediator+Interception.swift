extension Mediator {
    /// Adds `interceptor`, which sees every later call — its target, action, parameters and
    /// origin — before a missing target or action is handled, and lets it proceed, answers
    /// it, or refuses it. Interceptors run in the order they were added, on the caller's
    /// thread. A URL call reaches them only if it names an action URLs may call.
    ///
    /// ```swift
    /// mediator.addInterceptor { call in
    ///     guard call.target == "Review", !session.isSignedIn else { return .proceed }
    ///     return .refuse(reason: "sign in to review")
    /// }
    /// ```
    ///
    /// Dispose of the result to remove the interceptor.
    @discardableResult
    public func addInterceptor(_ interceptor: @escaping @Sendable (MediatorCall) -> MediatorInterception) -> AnyDisposable {
        let id = registry.withLock { $0.add(interceptor) }
        return AnyDisposable { [self] in
            registry.withLock { $0.interceptors.removeAll { $0.id == id } }
        }
    }

    /// The last step of the fallback chain: answers calls to a target nobody registered (a
    /// module that is not linked) and calls of an action that a target neither declares
    /// nor handles itself — in-process calls only: a URL call is refused before. It gets the call and the error the caller would otherwise get,
    /// and returns a result instead — a placeholder page, say — or throws (rethrowing the
    /// error, typically, after logging it). `nil` (the default) lets the error through.
    public var fallback: (@Sendable (MediatorCall, MediatorError) throws -> any Sendable)? {
        get { registry.withLock { $0.fallback } }
        set { registry.withLock { $0.fallback = newValue } }
    }
}
