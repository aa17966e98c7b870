/// What a ``Mediator`` knows, behind its lock: targets, overrides, interceptors and the
/// global fallback.
struct MediatorRegistry {
    typealias Interceptor = @Sendable (MediatorCall) -> MediatorInterception
    typealias Fallback = @Sendable (MediatorCall, MediatorError) throws -> any Sendable

    var targets = NameTable<TargetEntry>()
    /// Per name, the overrides in force, innermost last (``Mediator/withTarget(_:as:_:)``).
    var overrides: [String: [TargetEntry]] = [:]
    var interceptors: [(id: UInt64, intercept: Interceptor)] = []
    var nextInterceptorID: UInt64 = 0
    var fallback: Fallback?

    /// The target that answers calls to `name`.
    func target(named name: String) -> TargetEntry? {
        overrides.isEmpty ? targets[name] : overrides[name]?.last ?? targets[name]
    }

    /// Every name a call can reach.
    var names: some Sequence<String> {
        Set(targets.names).union(overrides.keys)
    }

    /// Adds `interceptor`, first or last, and returns its id for removal.
    mutating func add(_ interceptor: @escaping Interceptor, first: Bool) -> UInt64 {
        nextInterceptorID += 1
        interceptors.insert((nextInterceptorID, interceptor), at: first ? 0 : interceptors.count)
        return nextInterceptorID
    }

    mutating func removeOverride(_ entry: TargetEntry) {
        overrides[entry.name]?.removeAll { $0 === entry }
        if overrides[entry.name]?.isEmpty == true { overrides[entry.name] = nil }
    }
}
