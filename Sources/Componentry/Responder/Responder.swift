/// An object in a chain of responders: a view, its parent, a controller, the app.
///
/// An event raised at a responder goes up the chain, ``nextInChain`` by ``nextInChain``,
/// to the first responder that has a handler for it — declared for its type
/// (``ResponderEventHandling``) or added to the instance (``handle(_:_:)``). So a
/// leaf reports what happened without knowing who acts on it, and no closure or delegate
/// is passed down through the layers between them.
///
/// ```swift
/// final class DateCell: Responder {
///     weak var parent: (any Responder)?
///     var nextInChain: (any Responder)? { parent }
///
///     func tapped(on date: Date) {
///         raise(.dateSelected, date)
///     }
/// }
/// ```
///
/// Any class can be a responder. Responders live on the main actor, as UI objects do:
/// raising and handling happen there, synchronously.
@MainActor
public protocol Responder: AnyObject {
    /// The responder an event goes to when this one does not take it, or `nil` at the top
    /// of the chain.
    var nextInChain: (any Responder)? { get }
}

extension Responder {
    /// Sends `event` with `payload` up the chain, starting at this responder, and returns
    /// the responder that took it, or `nil` when none did.
    ///
    /// At each responder, a handler added to the instance comes before one declared for
    /// its type. A handler takes the event, unless it returns
    /// ``ResponderDisposition/passOn``; then the event goes on up. An event nobody takes
    /// reaches ``ResponderChain/unhandledEventHandler``.
    @discardableResult
    public func raise<Payload>(_ event: ResponderEvent<Payload>, _ payload: Payload) -> (any Responder)? {
        withUnsafePointer(to: payload) { pointer in
            ResponderChain.route(event.key, payload: pointer, from: self) { pointer.pointee }
        }
    }

    /// Sends `event`, which carries no payload, up the chain; see ``raise(_:_:)``.
    @discardableResult
    public func raise(_ event: ResponderEvent<Void>) -> (any Responder)? {
        raise(event, ())
    }

    /// Makes this responder take `event`, whatever its type declares, until the handler is
    /// removed or the responder is deallocated; a later handler for the same event
    /// replaces this one.
    ///
    /// `handler` gets the responder itself, so it need not capture it (capturing it
    /// strongly would keep it alive).
    public func handle<Payload>(_ event: ResponderEvent<Payload>, _ handler: @escaping @MainActor (Self, Payload) -> Void) {
        handle(event) { responder, payload -> ResponderDisposition in
            handler(responder, payload)
            return .handled
        }
    }

    /// Makes this responder handle `event`, taking it or passing it on as `handler`
    /// returns; see ``handle(_:_:)``.
    public func handle<Payload>(
        _ event: ResponderEvent<Payload>, _ handler: @escaping @MainActor (Self, Payload) -> ResponderDisposition
    ) {
        ResponderChain.instanceHandlers.add(ResponderHandler(handler), for: event.key, to: self)
    }

    /// Removes the handler ``handle(_:_:)`` added to this responder for `event`.
    public func removeHandler<Payload>(for event: ResponderEvent<Payload>) {
        ResponderChain.instanceHandlers.remove(event.key, from: self)
    }
}
