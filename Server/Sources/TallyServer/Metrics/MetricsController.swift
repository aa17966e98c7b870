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

    /// The window of a funnel whose request names none: a day, in seconds.
    static let defaultFunnelWindow = 86_400

    /// `?date=YYYY-MM-DD[&tz=Area/City][&filters=…]`: one day's metrics.
    func day(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let date = try required(["date"], in: query)[0]
            return try await store.metrics(app: app.id, date: date, timeZone: timeZone, filter: try Self.filter(in: query))
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&filters=…]`: daily series.
    func range(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let days = try required(["from", "to"], in: query)
            return try await store.metricsRange(app: app.id, from: days[0], to: days[1], timeZone: timeZone, filter: try Self.filter(in: query))
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&filters=…]`: revenue, paying users and
    /// first-time payers of the range and of each day (see ``RevenueMetrics``).
    func revenue(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let days = try required(["from", "to"], in: query)
            return try await store.revenue(app: app.id, from: days[0], to: days[1], timeZone: timeZone, filter: try Self.filter(in: query))
        }
    }

    /// `?date=YYYY-MM-DD&event=NAME&property=KEY[&tz=Area/City][&filters=…]`: the day's events
    /// named `event` by the value of `property`, the 50 most frequent values and the others summed.
    func breakdown(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let values = try required(["date", "event", "property"], in: query)
            return try await store.breakdown(
                app: app.id, event: values[1], property: values[2], date: values[0], timeZone: timeZone, filter: try Self.filter(in: query))
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&period=day|week][&filters=…]`: the
    /// retention matrix of the days (or weeks, Monday to Sunday) from `from` through `to`.
    func retention(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let days = try required(["from", "to"], in: query)
            let periodText = try query.get("period") ?? RetentionPeriod.day.rawValue
            guard let period = RetentionPeriod(rawValue: periodText) else {
                throw APIError.badRequest("period must be day or week, not \(periodText.prefix(40))")
            }
            return try await store.retention(
                app: app.id, from: days[0], to: days[1], timeZone: timeZone, period: period, filter: try Self.filter(in: query))
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD&steps=a,b,c[&window=SECONDS][&tz=Area/City][&filters=…][&breakdown=PROPERTY]`:
    /// how many users went through the steps in order, each within `window` seconds (a day by
    /// default) of their first step, starting on a day from `from` through `to` (see ``Funnel``).
    func funnel(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let values = try required(["from", "to", "steps"], in: query)
            let steps = try Self.steps(parsing: values[2])
            let window = try Self.window(parsing: try query.get("window"))
            let breakdown = try query.get("breakdown")
            if let breakdown, breakdown.isEmpty { throw APIError.badRequest("breakdown must name a property") }
            let filter = try Self.filter(in: query)
            do {
                return try await store.funnel(
                    app: app.id, steps: steps, from: values[0], to: values[1], window: window, timeZone: timeZone, filter: filter,
                    breakdown: breakdown)
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
        try await answer(request) { app, query, timeZone in
            let values = try required(["from", "to", "start"], in: query)
            guard Event.isValidName(values[2]) else {
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
            guard let depth = Int(depthText), (1...EventStore.maximumPathDepth).contains(depth) else {
                throw APIError.badRequest("depth must be a whole number from 1 to \(EventStore.maximumPathDepth), not \(depthText.prefix(40))")
            }
            return try await store.paths(
                app: app.id, start: values[2], kind: try choice("kind", default: Paths.Kind.event),
                direction: try choice("direction", default: Paths.Direction.after), depth: depth, from: values[0], to: values[1],
                timeZone: timeZone, filter: try Self.filter(in: query))
        }
    }

    /// The steps of `text` (see ``FunnelStep/steps(parsing:)``): 2 to
    /// ``EventStore/maximumFunnelSteps``, each naming an event as events may be named.
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
        guard (2...EventStore.maximumFunnelSteps).contains(steps.count) else {
            throw .badRequest("steps must list 2 to \(EventStore.maximumFunnelSteps) events separated by commas, not \(steps.count)")
        }
        if let index = steps.firstIndex(where: { !Event.isValidName($0.event) }) {
            throw .badRequest("step \(index + 1) must name an event of 1 to \(Event.maximumNameLength) characters without NUL")
        }
        return steps
    }

    /// The window of `text`, a whole number of seconds from 1 to
    /// ``EventStore/maximumFunnelWindow``; ``defaultFunnelWindow`` when `nil`.
    ///
    /// - Throws: A 400 for anything else: not a number, out of range, or too long to be one.
    static func window(parsing text: String?) throws(APIError) -> Int {
        guard let text else { return defaultFunnelWindow }
        // `Int.init(_:)` answers nil, never traps, for digits past Int.max.
        guard let seconds = Int(text), (1...EventStore.maximumFunnelWindow).contains(seconds) else {
            throw .badRequest("window must be a whole number of seconds from 1 to \(EventStore.maximumFunnelWindow), not \(text.prefix(40))")
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
    /// from debug builds with `debug=true`), its query, and the time zone it names (`tz`, or
    /// the app's), run as a read of the token (``ReadAdmission``); a store error becomes a 4xx
    /// or 503.
    private func answer<Answer: Encodable & Sendable>(
        _ request: Request, _ body: @escaping @Sendable (App, QueryParameters, String) async throws -> Answer
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
            let timeZone = try query.get("tz") ?? app.timeZone
            let read = app
            return try .json(try await reads.run(.tokens(of: read)) { try await body(read, query, timeZone) }, encoder: Response.timeEncoder)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(storeError: error)
        }
    }

    /// The values of the parameters `names` in `query`, in order; a 400 naming them if one
    /// is missing.
    private func required(_ names: [String], in query: QueryParameters) throws(APIError) -> [String] {
        var values: [String] = []
        for name in names {
            if let value = try query.get(name) { values.append(value) }
        }
        guard values.count == names.count else {
            throw .badRequest("missing " + names.map { "\($0)=" }.joined(separator: ", "))
        }
        return values
    }
}
