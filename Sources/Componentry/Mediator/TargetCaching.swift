/// How many instances of a target a ``Mediator`` creates.
///
/// ```swift
/// try mediator.register(BookDetailTarget.self, caching: .cached)
/// ```
public struct TargetCaching: Sendable {
    enum Kind: Sendable {
        case perCall
        case cached
        case owned(WeakReference)
    }

    let kind: Kind

    /// A new instance for every call (the default): a target keeps nothing between calls.
    public static let perCall = TargetCaching(kind: .perCall)

    /// One instance, created by the first call (atomically: concurrent first calls share
    /// it) and kept until ``Mediator/releaseCachedTarget(_:)``.
    public static let cached = TargetCaching(kind: .cached)

    /// One instance, as ``cached``, kept while `owner` lives; the first call after `owner`
    /// is gone releases it, and later calls each get a new instance.
    public static func owned(by owner: AnyObject) -> TargetCaching {
        TargetCaching(kind: .owned(WeakReference(owner)))
    }
}
