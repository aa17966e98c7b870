import Foundation
import Hummingbird
import TallyEvent
import TallyHTTP
import TallyStore

/// `GET /v1/metrics`, `GET /v1/metrics/range`, `GET /v1/metrics/breakdown`, `GET /v1/revenue`,
/// `GET /v1/retention`, `GET /v1/funnels` and `GET /v1/paths`: exact metrics of the app whose read token is
/// presented as `Authorization: Bearer <token>`.
///
/// Every route takes `filters=`, a ``SegmentFilter`` in the syntax of
/// Plausible's Stats API v1 (`app_version==3.3.0|3.2.0;platform!=Android;plan==pro`): the
/// metrics of that segment alone. A filter that does not parse, or names a property that is
/// neither built in nor one of the app's segment properties, is a 400 saying so.
///
/// Each read waits its turn in ``ReadAdmission`` as a read of the token's app: past its
/// deadline it is a 503 with `Retry-After`.
struct MetricsController {
    let store: EventStore
    let apps: AppDirectory
    let reads: ReadAdmission

    /// `?date=YYYY-MM-DD[&tz=Area/City][&filters=…]`: one day's metrics.
    func day(_ request: Request) async throws -> Response {
        try await answer(request) { app, query in
            try await store.metrics.day(ReadScope(query, app: app.id, days: ["date"]))
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&filters=…]`: daily series.
    func range(_ request: Request) async throws -> Response {
        try await answer(request) { app, query in
            try await store.metrics.range(ReadScope(query, app: app.id))
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&filters=…]`: revenue, paying users and
    /// first-time payers of the range and of each day (see ``RevenueMetrics``).
    func revenue(_ request: Request) async throws -> Response {
        try await answer(request) { app, query in
            try await store.metrics.revenue(ReadScope(query, app: app.id))
        }
    }

    /// `?date=YYYY-MM-DD&event=NAME&property=KEY[&tz=Area/City][&filters=…]`: the day's events
    /// named `event` by the value of `property`, the 50 most frequent values and the others summed.
    func breakdown(_ request: Request) async throws -> Response {
        try await answer(request) { app, query in
            let values = try query.required(["date", "event", "property"])
            return try await store.metrics.breakdown(event: values[1], by: values[2], in: ReadScope(query, app: app.id, days: ["date"]))
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&period=day|week][&filters=…]`: the
    /// retention matrix of the days (or weeks, Monday to Sunday) from `from` through `to`.
    func retention(_ request: Request) async throws -> Response {
        try await answer(request) { app, query in
            let scope = try ReadScope(query, app: app.id)
            let periodText = try query.get("period") ?? RetentionPeriod.day.rawValue
            guard let period = RetentionPeriod(rawValue: periodText) else {
                throw APIError.badRequest("period must be day or week, not \(periodText.prefix(40))")
            }
            return try await store.metrics.retention(scope, period: period)
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD&steps=a,b,c[&window=SECONDS][&tz=Area/City][&filters=…][&breakdown=PROPERTY]`:
    /// how many users went through the steps in order, each within `window` seconds (a day by
    /// default) of their first step, starting on a day from `from` through `to` (see ``Funnel``).
    func funnel(_ request: Request) async throws -> Response {
        try await answer(request) { app, query in
            let scope = try ReadScope(query, app: app.id)
            let steps = try Self.steps(parsing: try query.required(["steps"])[0])
            let window = try Self.window(parsing: try query.get("window"))
            let breakdown = try query.get("breakdown")
            if let breakdown, breakdown.isEmpty { throw APIError.badRequest("breakdown must name a property") }
            do {
                return try await store.metrics.funnel(steps, window: window, breakdown: breakdown, in: scope)
            } catch let error as TallyStoreError {
                guard let breakdown, error == .unknownFilterProperty(breakdown) else { throw error }
                throw APIError.badRequest(
                    "Unknown breakdown property \"\(breakdown)\": expected app_version, platform or one of the app's segment properties.")
            }
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD&start=NAME[&kind=event|screen][&direction=after|before][&depth=1…5][&tz=Area/City][&filters=…]`:
    /// where sessions went after their first `start` (an event, or a screen), level by
    /// level, or came from before it (see ``Paths``). Depth 3 unless given.
    func paths(_ request: Request) async throws -> Response {
        try await answer(request) { app, query in
            let scope = try ReadScope(query, app: app.id)
            let start = try query.required(["start"])[0]
            guard Event.isValidName(start) else {
                throw APIError.badRequest("start must name an event or screen of 1 to \(Event.maximumNameLength) characters without NUL")
            }
            func choice<Choice: RawRepresentable<String> & CaseIterable>(_ name: String, default value: Choice) throws -> Choice {
                guard let text = try query.get(name) else { return value }
                guard let choice = Choice(rawValue: text) else {
                    throw APIError.badRequest("\(name) must be \(Choice.allCases.map(\.rawValue).joined(separator: " or ")), not \(text.prefix(40))")
                }
                return choice
            }
            let depthText = try query.get("depth") ?? "3"
            // `Int.init(_:)` answers nil, never traps, for digits past Int.max.
            guard let depth = Int(depthText), (1...Paths.maximumDepth).contains(depth) else {
                throw APIError.badRequest("depth must be a whole number from 1 to \(Paths.maximumDepth), not \(depthText.prefix(40))")
            }
            return try await store.metrics.paths(
                from: start, kind: try choice("kind", default: Paths.Kind.event), direction: try choice("direction", default: Paths.Direction.after),
                depth: depth, in: scope)
        }
    }

    /// The steps of `text` (see ``FunnelStep/steps(parsing:)``): 2 to
    /// ``Funnel/maximumSteps``, each naming an event as events may be named.
    ///
    /// - Throws: A 400 naming the step that does not parse (with the reason of its
    ///   ``SegmentFilter/ParseError``), or saying what else is wrong.
    static func steps(parsing text: String) throws(APIError) -> [FunnelStep] {
        let steps: [FunnelStep]
        do {
            steps = try FunnelStep.steps(parsing: text)
        } catch {
            throw .badRequest("Invalid steps \"\(error.part)\": \(error.reason).")
        }
        if let problem = FunnelStep.problem(with: steps) { throw .badRequest(problem) }
        return steps
    }

    /// The window of `text`, a whole number of seconds from 1 to
    /// ``Funnel/maximumWindow``; ``Funnel/defaultWindow`` when `nil`.
    ///
    /// - Throws: A 400 for anything else: not a number, out of range, or too long to be one.
    static func window(parsing text: String?) throws(APIError) -> Int {
        guard let text else { return Funnel.defaultWindow }
        // `Int.init(_:)` answers nil, never traps, for digits past Int.max.
        guard let seconds = Int(text), (1...Funnel.maximumWindow).contains(seconds) else {
            throw .badRequest("window must be a whole number of seconds from 1 to \(Funnel.maximumWindow), not \(text.prefix(40))")
        }
        return seconds
    }

    /// The segment of `query`'s `filters`: empty (everything) without one.
    ///
    /// - Throws: A 400 with the parse error's description.
    static func filter(in query: QueryParameters) throws(APIError) -> SegmentFilter {
        guard let text = try query.get("filters") else { return SegmentFilter() }
        do {
            return try SegmentFilter(parsing: text)
        } catch {
            throw .badRequest(error.description)
        }
    }

    /// Answers `request` with what `body` returns for the app of its read token (its events
    /// from debug builds with `debug=true`) and its query, run as a read of the token
    /// (``ReadAdmission``); a store error becomes a 4xx or 503.
    private func answer<Answer: Encodable & Sendable>(
        _ request: Request, _ body: @escaping @Sendable (App, QueryParameters) async throws -> Answer
    ) async throws -> Response {
        do {
            var app = try await apps.app(tokenOf: request)
            let query = QueryParameters(request.uri.query)
            switch try query.get("debug") {
            case nil, "false": break
            case "true": app.id = app.id.debug
            case let other?: throw APIError.badRequest("debug must be true or false, not \(other.prefix(40))")
            }
            // Times (a breakdown's `raw_events_kept_since`) as ISO 8601, as the other routes write them.
            let read = app
            return try .json(try await reads.run(.tokens(of: read)) { try await body(read, query) }, encoder: Response.timeEncoder)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(storeError: error)
        }
    }
}
