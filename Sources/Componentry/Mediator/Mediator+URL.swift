public import Foundation

extension Mediator {
    /// Calls the action `url` names — `scheme://target/action?key=value`, any scheme — and
    /// returns its result as a `Result`, as ``call(_:_:_:as:isolation:)`` does.
    ///
    /// Only actions declared with `allowsURLCalls: true` run. Any other URL — naming an
    /// internal action, an undeclared one, or a target nobody registered — throws
    /// ``MediatorError/notExposed(target:action:)`` before interceptors, not-found handlers
    /// or the fallback see the call, with no "did you mean": a link from outside the app
    /// reaches only what a module chose to offer, and cannot tell what else exists. Query values arrive as strings, which an action
    /// reads as the types it expects (see ``MediatorParameters``); `parameters` given here
    /// override those of the URL.
    ///
    /// ```swift
    /// let page: BookPage = try mediator.call(URL(string: "tally://BookDetail/page?bookID=42")!)
    /// ```
    @inlinable
    public func call<Result>(
        _ url: URL, _ parameters: MediatorParameters = [:], as type: Result.Type = Result.self,
        isolation: isolated (any Actor)? = #isolation
    ) throws(MediatorError) -> Result {
        let call = try MediatorCall(url: url, overriding: parameters)
        return try Self.typed(perform(call, from: isolation), for: call)
    }

    /// Calls the action `url` names, awaiting it as needed; see ``call(_:_:as:isolation:)`` and
    /// ``callAsync(_:_:_:as:)``.
    @inlinable
    public func callAsync<Result: Sendable>(
        _ url: URL, _ parameters: MediatorParameters = [:], as type: Result.Type = Result.self
    ) async throws(MediatorError) -> Result {
        let call = try MediatorCall(url: url, overriding: parameters)
        return try Self.typed(await performAsync(call), for: call)
    }
}

extension MediatorCall {
    /// The call `url` names, with `parameters` overriding the URL's query.
    @usableFromInline
    init(url: URL, overriding parameters: MediatorParameters) throws(MediatorError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let target = components.host, !target.isEmpty
        else { throw .badURL(url.absoluteString) }
        let action = components.path.drop { $0 == "/" }
        guard !action.isEmpty, !action.contains("/") else { throw .badURL(url.absoluteString) }
        let query = MediatorParameters(entries: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        self.init(target: target, action: String(action), parameters: query.merging(parameters), origin: .url(url))
    }
}
