import Foundation
import Locking

/// Calls between modules that do not import each other: a caller names a target and an
/// action, the mediator finds them at run time, and neither side imports the other — nor
/// does the mediator import either.
///
/// A module registers its target; callers call it by name, with parameters, and get a
/// typed result:
///
/// ```swift
/// try mediator.register(BookDetailTarget.self)
/// let title: String = try mediator.call("BookDetail", "title", ["bookID": 42])
/// ```
///
/// Each module offers typed facades as extensions of `Mediator`, so its callers get
/// completion and typed arguments instead of names and dictionaries:
///
/// ```swift
/// extension Mediator {
///     func bookTitle(_ bookID: Int) throws(MediatorError) -> String {
///         try call("BookDetail", "title", ["bookID": bookID])
///     }
/// }
/// ```
///
/// ## Failures and fallbacks
/// A call never crashes: it returns its result or throws a ``MediatorError``. A call to an
/// action the target does not declare goes to the target's own not-found handler
/// (``MediatorActionTable/notFound(_:)``); a call to a target nobody registered (a module
/// that is not linked), or an action without a handler, goes to the global ``fallback``;
/// without one, the caller gets the error, with a "did you mean" suggestion for a near
/// miss. Interceptors (``addInterceptor(_:)``) see every call and its origin first.
///
/// A URL call (``call(_:_:as:isolation:)``) reaches only actions declared with
/// `allowsURLCalls: true`; any other — to an internal action, an undeclared one or a
/// target nobody registered — is refused with ``MediatorError/notExposed(target:action:)``
/// before interceptors, not-found handlers and the fallback see it, and with no
/// suggestion, so a link from outside cannot probe which targets exist.
///
/// ## Results
/// An action's result reaches the caller as the type asked for, converted losslessly if it
/// is another (see ``MediatorParameters``), or the caller gets
/// ``MediatorError/unexpectedResult(target:action:expected:found:)``.
///
/// ## Threads
/// The mediator is `Sendable`: register, call and intercept from any thread. An action
/// runs on the caller's thread, on the main actor, or asynchronously, as its target
/// declared it (``MediatorActionTable``). Fallbacks and interceptors run on the caller's
/// thread; no lock is held while any of them, or an action, runs.
///
/// ## Cost
/// A call takes the mediator's lock once, finds the target and the action by name
/// (comparing names while there are few, hashing beyond), makes or reuses the target and
/// calls the action directly. It allocates the parameters, and the target unless it is
/// cached; a typed facade adds a cast of the result.
public final class Mediator: Sendable {
    /// A process-wide mediator, for modules that share no other object.
    public static let shared = Mediator()

    let registry = Locked(MediatorRegistry())

    /// Creates a mediator with no targets.
    public init() {}

    // MARK: Registering

    /// Registers `type`'s actions under `name` (by default the target's own name), with
    /// instances made as `caching` says.
    ///
    /// - Throws: ``MediatorError/blankTargetName`` or
    ///   ``MediatorError/duplicateTarget(_:)``; nothing is registered then.
    public func register<Target: MediatorTarget>(
        _ type: Target.Type, as name: String = Target.name, caching: TargetCaching = .perCall
    ) throws(MediatorError) {
        let entry = TargetEntry(type, name: name, caching: caching)
        try registry.withLock { registry throws(MediatorError) in
            guard !name.allSatisfy(\.isWhitespace) else { throw .blankTargetName }
            guard registry.targets[name] == nil else { throw .duplicateTarget(name) }
            registry.targets.set(entry, for: name)
        }
    }

    /// Whether calls to `name` reach a target: one registered, or one standing in for it
    /// within ``withTarget(_:as:_:)``.
    public func hasTarget(_ name: String) -> Bool {
        registry.withLock { $0.target(named: name) != nil }
    }

    /// Drops the cached instance of the target registered under `name`, if any; the next
    /// call that needs one creates it.
    public func releaseCachedTarget(_ name: String) {
        registry.withLock { $0.target(named: name) }?.releaseCached()
    }

    // MARK: Calling

    /// Calls `action` on `target` with `parameters`, synchronously, and returns its result
    /// as a `Result`.
    ///
    /// An action isolated to the main actor runs when this is called from code isolated to
    /// the main actor (so a facade for one is `@MainActor` too) or on the main thread; an
    /// asynchronous one needs ``callAsync(_:_:_:as:)``.
    ///
    /// - Throws: a ``MediatorError``; never crashes.
    @inlinable
    public func call<Result>(
        _ target: String, _ action: String, _ parameters: MediatorParameters = [:], as type: Result.Type = Result.self,
        isolation: isolated (any Actor)? = #isolation
    ) throws(MediatorError) -> Result {
        let call = MediatorCall(target: target, action: action, parameters: parameters)
        return try Self.typed(perform(call, from: isolation), for: call)
    }

    /// Calls `action` on `target` with `parameters`, whatever the action's isolation —
    /// hopping to the main actor or awaiting it as needed — and returns its result as a
    /// `Result`.
    ///
    /// - Throws: a ``MediatorError``; never crashes.
    @inlinable
    public func callAsync<Result: Sendable>(
        _ target: String, _ action: String, _ parameters: MediatorParameters = [:], as type: Result.Type = Result.self
    ) async throws(MediatorError) -> Result {
        let call = MediatorCall(target: target, action: action, parameters: parameters)
        return try Self.typed(await performAsync(call), for: call)
    }

    /// `value` as the `Result` a caller asked for.
    @inlinable
    static func typed<Result>(_ value: any Sendable, for call: MediatorCall) throws(MediatorError) -> Result {
        if let result = value as? Result { return result }
        return try converted(value, for: call)
    }

    /// The slow path of ``typed(_:for:)``: a result of another type, converted or refused.
    @usableFromInline
    static func converted<Result>(_ value: any Sendable, for call: MediatorCall) throws(MediatorError) -> Result {
        guard let result = ValueConversion.convert(value, to: Result.self) else {
            throw .unexpectedResult(
                target: call.target, action: call.action, expected: "\(Result.self)", found: "\(type(of: value))"
            )
        }
        return result
    }

    /// Runs `call` synchronously for a caller isolated to `isolation`: the non-generic core
    /// of ``call(_:_:_:as:isolation:)``.
    @usableFromInline
    func perform(_ call: MediatorCall, from isolation: (any Actor)?) throws(MediatorError) -> any Sendable {
        let (entry, action): (TargetEntry, MediatorAction)
        switch try route(call) {
        case .answered(let answer): return answer
        case .run(let target, let found): (entry, action) = (target, found)
        }
        do {
            switch action.body {
            case .sync(let body):
                return try body(entry.instance(for: self), call.parameters)
            case .mainActor(let body):
                guard isolation === MainActor.shared || Thread.isMainThread else {
                    throw MediatorError.needsMainActor(target: call.target, action: call.action)
                }
                return try MainActor.assumeIsolated { try body(entry.instance(for: self), call.parameters) }
            case .async:
                throw MediatorError.needsAsyncCall(target: call.target, action: call.action)
            }
        } catch {
            throw Self.failure(error, in: call)
        }
    }

    /// Runs `call`, awaiting it as needed: the non-generic core of
    /// ``callAsync(_:_:_:as:)``.
    @usableFromInline
    func performAsync(_ call: MediatorCall) async throws(MediatorError) -> any Sendable {
        let (entry, action): (TargetEntry, MediatorAction)
        switch try route(call) {
        case .answered(let answer): return answer
        case .run(let target, let found): (entry, action) = (target, found)
        }
        do {
            switch action.body {
            case .sync(let body):
                return try body(entry.instance(for: self), call.parameters)
            case .mainActor(let body):
                return try await MainActor.run { try body(entry.instance(for: self), call.parameters) }
            case .async(let body):
                return try await body(entry.instance(for: self), call.parameters)
            }
        } catch {
            throw Self.failure(error, in: call)
        }
    }

    /// Where a call goes once interceptors and lookup are done.
    private enum Route {
        /// Run this action of this target.
        case run(TargetEntry, MediatorAction)
        /// An interceptor or a not-found handler answered the call.
        case answered(any Sendable)
    }

    /// Shows `call` to the recordings, refuses it if it is a URL call of an action URLs may
    /// not call, passes it through the interceptors, then finds its action, or the handler
    /// that answers for a missing one: the target's own, then the global fallback.
    private func route(_ call: MediatorCall) throws(MediatorError) -> Route {
        let (entry, recorders, interceptors) = registry.withLock { registry in
            (registry.target(named: call.target), registry.recorders, registry.interceptors)
        }
        for recorder in recorders { recorder.record(call) }
        let action = entry?.actions[call.action]
        if case .url = call.origin, action?.allowsURLCalls != true {
            // One error, naming only what the URL said, whether the target is missing, the
            // action undeclared or internal: a URL reaches no not-found handler, fallback or
            // interceptor, and cannot tell which targets and actions exist.
            throw .notExposed(target: call.target, action: call.action)
        }
        for interceptor in interceptors {
            switch interceptor.intercept(call) {
            case .proceed: continue
            case .respond(let answer): return .answered(answer)
            case .refuse(let reason): throw .refused(target: call.target, action: call.action, reason: reason)
            }
        }
        guard let entry else {
            let names = registry.withLock { Array($0.names) }
            let suggestion = NameSuggestion.closest(to: call.target, among: names)
            return try fallBack(call, .targetNotFound(call.target, suggestion: suggestion))
        }
        guard let action else {
            if let notFound = entry.notFound {
                do {
                    return .answered(try notFound(entry.instance(for: self), call))
                } catch {
                    throw Self.failure(error, in: call)
                }
            }
            let suggestion = NameSuggestion.closest(to: call.action, among: entry.actions.names)
            return try fallBack(call, .actionNotFound(target: call.target, action: call.action, suggestion: suggestion))
        }
        return .run(entry, action)
    }

    /// Answers `call`, which failed with `error`, with the global fallback, or throws
    /// `error` when there is none.
    private func fallBack(_ call: MediatorCall, _ error: MediatorError) throws(MediatorError) -> Route {
        guard let fallback = registry.withLock({ $0.fallback }) else { throw error }
        do {
            return .answered(try fallback(call, error))
        } catch {
            throw Self.failure(error, in: call)
        }
    }

    /// `error` as the caller gets it: a ``MediatorError`` as is, anything else wrapped.
    private static func failure(_ error: any Error, in call: MediatorCall) -> MediatorError {
        error as? MediatorError ?? .actionFailed(target: call.target, action: call.action, underlying: error)
    }
}
