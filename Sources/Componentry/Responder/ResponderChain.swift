/// Hooks for every responder chain, and the routing behind ``Responder/raise(_:_:)``.
///
/// ```swift
/// ResponderChain.unhandledEventHandler = { trace in
///     assertionFailure("nobody handles \(trace.event)")
/// }
/// ```
///
/// Both hooks are `nil` by default; while both are, raising an event records nothing.
@MainActor
public enum ResponderChain {
    /// Called with the trace of every event that no responder took.
    public static var unhandledEventHandler: ((ResponderTrace) -> Void)?

    /// Called with the trace of every event raised, after it was handled or not.
    public static var tracer: ((ResponderTrace) -> Void)?

    /// Per responder type, the handlers it declares (`nil` for a type that declares none),
    /// built the first time an event reaches an instance of the type.
    private static var typeTables = TypeTable<[ResponderEventKey: ResponderHandler]?>()
    static var instanceHandlers = InstanceHandlers()

    /// Sends the event `key` names, whose payload `payload` points to, up the chain from
    /// `origin`; `boxed` copies the payload out, for traces only.
    static func route(
        _ key: ResponderEventKey, payload: UnsafeRawPointer, from origin: any Responder, boxed: () -> Any
    ) -> (any Responder)? {
        let recording = tracer != nil || unhandledEventHandler != nil
        let checksInstances = !instanceHandlers.isEmpty
        // A local copy: lookups in it need no exclusivity checks; refreshed when a type is
        // seen for the first time.
        var tables = typeTables
        var steps: [ResponderTrace.Step] = []
        var next: (any Responder)? = origin
        var taker: (any Responder)?
        while let responder = next.take() {  // moved out: one retain per level, by nextInChain
            let declared: [ResponderEventKey: ResponderHandler]?
            if let cached = tables[ObjectIdentifier(type(of: responder))] {
                declared = cached
            } else {
                declared = declaredHandlers(of: responder)
                tables = typeTables
            }
            let handler = (checksInstances ? instanceHandlers.handler(for: key, at: responder) : nil) ?? declared?[key]
            let disposition = handler?.call(responder, payload)
            if recording { steps.append(.init(responder: responder, disposition: disposition)) }
            if disposition == .handled {
                taker = responder
                break
            }
            next = responder.nextInChain
        }
        if recording {
            let trace = ResponderTrace(event: key.name, payload: boxed(), steps: steps)
            tracer?(trace)
            if taker == nil { unhandledEventHandler?(trace) }
        }
        return taker
    }

    /// Builds and caches the handlers `responder`'s type declares; `nil` when it declares
    /// none.
    private static func declaredHandlers(of responder: any Responder) -> [ResponderEventKey: ResponderHandler]? {
        let type = type(of: responder)
        let handlers = (type as? any ResponderEventHandling.Type).map { declaredHandlers(of: $0, checking: responder) }
        if typeTables[ObjectIdentifier(type)] == nil {  // a handler table may raise events
            typeTables.insert(handlers, for: ObjectIdentifier(type))
        }
        return handlers
    }

    private static func declaredHandlers<Handling: ResponderEventHandling>(
        of type: Handling.Type, checking responder: any Responder
    ) -> [ResponderEventKey: ResponderHandler] {
        // Checked once per type, so handlers may downcast without checking.
        precondition(responder is Handling.Target, "\(Handling.self) declares handlers for \(Handling.Target.self), which it is not")
        var table = ResponderHandlerTable<Handling.Target>()
        Handling.registerHandlers(in: &table)
        return table.handlers
    }
}
