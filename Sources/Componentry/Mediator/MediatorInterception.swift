/// What an interceptor decides about a call (``Mediator/addInterceptor(_:)``).
public enum MediatorInterception: Sendable {
    /// Let the call go on, to the next interceptor and then the target.
    case proceed
    /// Answer the call with this value instead of running it — for instance, a login page
    /// for an action that needs a signed-in user.
    case respond(any Sendable)
    /// Refuse the call: the caller gets ``MediatorError/refused(target:action:reason:)``.
    case refuse(reason: String)
}
