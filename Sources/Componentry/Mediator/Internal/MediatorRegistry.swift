/// What a ``Mediator`` knows, behind its lock: targets, overrides, recordings,
/// interceptors and the global fallback.
struct MediatorRegistry {
    typealias Interceptor = @Sendable (MediatorCall) -> MediatorInterception
    typealias Fallback = @Sendable (MediatorCall, MediatorError) throws -> any Sendable

    var targets = NameTable<TargetEntry>()
    /// Per name, the overrides in force, innermost last (``Mediator/withTarget(_:as:_:)``).
    var overrides: [String: [TargetEntry]] = [:]
    typealias Recorder = @Sendable (MediatorCall) -> Void

    /// The recordings in progress (``Mediator/recordCalls()``), which see every call first.
    var recorders: [(id: UInt64, record: Recorder)] = []
    var interceptors: [(id: UInt64, intercept: Interceptor)] = []
    var nextID: UInt64 = 0
    var fallback: Fallback?

    /// The target that answers calls to `name`.
    func target(named name: String) -> TargetEntry? {
        overrides.isEmpty ? targets[name] : overrides[name]?.last ?? targets[name]
    }

    /// Every name a call can reach.
    var names: some Sequence<String> {
        Set(targets.names).union(overrides.keys)
    }

    /// Adds `interceptor`, last, and returns its id for removal.
    mutating func add(_ interceptor: @escaping Interceptor) -> UInt64 {
        nextID += 1
        interceptors.append((nextID, interceptor))
        return nextID
    }

    /// Adds `recorder` and returns its id for removal.
    mutating func add(_ recorder: @escaping Recorder) -> UInt64 {
        nextID += 1
        recorders.append((nextID, recorder))
        return nextID
    }

    mutating func removeOverride(_ entry: TargetEntry) {
        overrides[entry.name]?.removeAll { $0 === entry }
        if overrides[entry.name]?.isEmpty == true { overrides[entry.name] = nil }
    }
}
