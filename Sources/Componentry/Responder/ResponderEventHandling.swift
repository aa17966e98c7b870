/// A responder whose type declares handlers for responder-chain events.
///
/// The library asks a type for its handlers once, the first time an event reaches one of
/// its instances, and keeps the table: finding a handler later is a lookup.
///
/// ```swift
/// extension DashboardController: ResponderEventHandling {
///     static func registerHandlers(in table: inout ResponderHandlerTable<DashboardController>) {
///         table.on(.dateSelected) { controller, date in controller.select(date) }
///         table.on(.cardTapped) { controller, card in
///             controller.log(card)
///             return .passOn            // let a responder further up act on it too
///         }
///     }
/// }
/// ```
///
/// A subclass shares its superclass's handlers; declare `registerHandlers` as a
/// `class func` to let subclasses override it. Instances can add their own with
/// ``Responder/handle(_:_:)``.
@MainActor
public protocol ResponderEventHandling: Responder {
    /// The type the handlers receive: the conforming class. Inferred from
    /// ``registerHandlers(in:)``.
    associatedtype Target: AnyObject = Self

    /// Declares this type's handlers in `table`; called once per type.
    static func registerHandlers(in table: inout ResponderHandlerTable<Target>)
}
