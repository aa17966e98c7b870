/// A module's entry point for calls through a ``Mediator``: a named target whose actions
/// other modules call by name, without importing the module.
///
/// A target declares its actions once, by name; each gets the target and the call's
/// parameters, and returns a result:
///
/// ```swift
/// final class BookDetailTarget: MediatorTarget {
///     static let name = "BookDetail"
///     init(mediator: Mediator) {}
///
///     static func registerActions(in table: inout MediatorActionTable<BookDetailTarget>) {
///         table.action("title") { _, parameters in
///             try Catalog.title(of: parameters.value("bookID", as: Int.self))
///         }
///         table.mainActorAction("page", allowsURLCalls: true) { _, parameters in
///             try BookPage(bookID: parameters.value("bookID"))
///         }
///     }
/// }
/// ```
///
/// The module registers it once, at a moment the app chooses
/// (``Mediator/register(_:as:caching:)``). The mediator creates instances with
/// ``init(mediator:)`` — one per call, or one cached, as ``TargetCaching`` says — so a
/// target is usually a small `final class` that keeps at most its mediator; one that keeps
/// more must keep it safe to share across threads, as `Sendable` requires.
public protocol MediatorTarget: AnyObject, Sendable {
    /// The name callers use, unique per mediator: `"BookDetail"`.
    static var name: String { get }

    /// Creates an instance for a call, or for the cache, made by `mediator`: keep it to
    /// call other modules. (A cached instance that keeps it keeps the mediator alive until
    /// it is released.)
    init(mediator: Mediator)

    /// Declares the target's actions in `table`; called once per registration.
    static func registerActions(in table: inout MediatorActionTable<Self>)
}
