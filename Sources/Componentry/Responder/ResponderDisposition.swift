/// What a responder-chain handler did with an event.
public enum ResponderDisposition: Sendable {
    /// The handler took the event; it goes no further.
    case handled
    /// The handler let the event go on to the next responder up the chain, as if this
    /// responder had no handler for it.
    case passOn
}
