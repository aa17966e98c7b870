/// The handlers a ``ResponderEventHandling`` type declares, keyed by event.
///
/// Each handler gets the responder, typed as `Target`, and the event's typed payload. A
/// handler that returns nothing takes the event; one that returns a
/// ``ResponderDisposition`` decides. Declaring a second handler for an event replaces the
/// first.
public struct ResponderHandlerTable<Target: AnyObject> {
    var handlers: [ResponderEventKey: ResponderHandler] = [:]

    init() {}

    /// Takes `event`: `handler` runs and the event goes no further.
    public mutating func on<Payload>(
        _ event: ResponderEvent<Payload>, _ handler: @escaping @MainActor (Target, Payload) -> Void
    ) {
        on(event) { target, payload -> ResponderDisposition in
            handler(target, payload)
            return .handled
        }
    }

    /// Handles `event` and takes it or passes it on, as `handler` returns.
    public mutating func on<Payload>(
        _ event: ResponderEvent<Payload>, _ handler: @escaping @MainActor (Target, Payload) -> ResponderDisposition
    ) {
        handlers[event.key] = ResponderHandler(handler)
    }
}
