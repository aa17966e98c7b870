/// The path an event took up a responder chain, for ``ResponderChain/tracer`` and
/// ``ResponderChain/unhandledEventHandler``.
///
/// ```swift
/// ResponderChain.tracer = { trace in
///     print(trace.event, trace.steps.map { "\(type(of: $0.responder))" })
/// }
/// ```
public struct ResponderTrace {
    /// One responder the event reached.
    public struct Step {
        /// The responder.
        public let responder: any Responder
        /// What its handler did, or `nil` when it had none for the event.
        public let disposition: ResponderDisposition?
    }

    /// The event's name.
    public let event: String
    /// The event's payload.
    public let payload: Any
    /// The responders the event reached, from the one that raised it up to the one that
    /// took it (or the top of the chain).
    public let steps: [Step]

    /// The responder that took the event, or `nil` when none did.
    public var handler: (any Responder)? {
        steps.last.flatMap { $0.disposition == .handled ? $0.responder : nil }
    }
}
