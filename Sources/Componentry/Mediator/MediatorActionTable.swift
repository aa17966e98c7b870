/// The actions a ``MediatorTarget`` declares, keyed by name, and its own handler for
/// actions it does not declare.
///
/// An action gets the target instance, typed as `Target`, and the call's
/// ``MediatorParameters``; it returns a result the mediator hands back to the caller, or
/// throws. It runs where the caller is, on the main actor, or asynchronously, as it was
/// declared. Every action is internal — callable in process only — unless declared with
/// `allowsURLCalls: true`. Declaring an action again replaces it.
public struct MediatorActionTable<Target: MediatorTarget> {
    var actions = NameTable<MediatorAction>()
    var notFound: MediatorAction.NotFound?

    init() {}

    /// Declares `name`: `body` runs synchronously on the caller's thread.
    public mutating func action<Result: Sendable>(
        _ name: String, allowsURLCalls: Bool = false,
        _ body: @escaping @Sendable (Target, MediatorParameters) throws -> Result
    ) {
        actions.set(
            MediatorAction(
                allowsURLCalls: allowsURLCalls,
                body: .sync { target, parameters in
                    try body(unsafeDowncast(target, to: Target.self), parameters)
                }), for: name)
    }

    /// Declares `name`, whose `body` is isolated to the main actor: it runs synchronously
    /// for a ``Mediator/call(_:_:_:as:isolation:)`` made on the main actor, and after a hop there for
    /// ``Mediator/callAsync(_:_:_:as:)``.
    public mutating func mainActorAction<Result: Sendable>(
        _ name: String, allowsURLCalls: Bool = false,
        _ body: @escaping @MainActor @Sendable (Target, MediatorParameters) throws -> Result
    ) {
        actions.set(
            MediatorAction(
                allowsURLCalls: allowsURLCalls,
                body: .mainActor { target, parameters in
                    try body(unsafeDowncast(target, to: Target.self), parameters)
                }), for: name)
    }

    /// Declares `name`, whose `body` is asynchronous: callable with
    /// ``Mediator/callAsync(_:_:_:as:)`` only.
    public mutating func action<Result: Sendable>(
        _ name: String, allowsURLCalls: Bool = false,
        _ body: @escaping @Sendable (Target, MediatorParameters) async throws -> Result
    ) {
        actions.set(
            MediatorAction(
                allowsURLCalls: allowsURLCalls,
                body: .async { target, parameters in
                    try await body(unsafeDowncast(target, to: Target.self), parameters)
                }), for: name)
    }

    /// Answers calls of actions the target does not declare — the first step of the
    /// fallback chain, before ``Mediator/fallback``. `handler` gets the target and the
    /// call, and runs synchronously on the caller's thread.
    public mutating func notFound(_ handler: @escaping @Sendable (Target, MediatorCall) throws -> any Sendable) {
        notFound = { target, call in try handler(unsafeDowncast(target, to: Target.self), call) }
    }
}
