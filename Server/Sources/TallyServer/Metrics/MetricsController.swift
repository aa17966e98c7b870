import Foundation
import Hummingbird
import TallyStore

/// `GET /v1/metrics`, `GET /v1/metrics/range`, `GET /v1/metrics/breakdown` and
/// `GET /v1/retention`: exact metrics of the app whose read token is presented as
/// `Authorization: Bearer <token>`.
struct MetricsController {
    let store: EventStore
    let apps: AppDirectory

    /// `?date=YYYY-MM-DD[&tz=Area/City]`: one day's metrics.
    func day(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let date = try required(["date"], in: query)[0]
            return try await store.metrics(app: app.id, date: date, timeZone: timeZone)
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City]`: daily series.
    func range(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let days = try required(["from", "to"], in: query)
            return try await store.metricsRange(app: app.id, from: days[0], to: days[1], timeZone: timeZone)
        }
    }

    /// `?date=YYYY-MM-DD&event=NAME&property=KEY[&tz=Area/City]`: the day's events named
    /// `event` by the value of `property`, the 50 most frequent values and the others summed.
    func breakdown(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let values = try required(["date", "event", "property"], in: query)
            return try await store.breakdown(app: app.id, event: values[1], property: values[2], date: values[0], timeZone: timeZone)
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&period=day|week]`: the retention
    /// matrix of the days (or weeks, Monday to Sunday) from `from` through `to`.
    func retention(_ request: Request) async throws -> Response {
        try await answer(request) { app, query, timeZone in
            let days = try required(["from", "to"], in: query)
            let periodText = query.get("period") ?? RetentionPeriod.day.rawValue
            guard let period = RetentionPeriod(rawValue: periodText) else {
                throw APIError.badRequest("period must be day or week, not \(periodText.prefix(40))")
            }
            return try await store.retention(app: app.id, from: days[0], to: days[1], timeZone: timeZone, period: period)
        }
    }

    /// Answers `request` with what `body` returns for the app of its read token (its events
    /// from debug builds with `debug=true`), its query, and the time zone it names (`tz`, or
    /// the app's); a store error becomes a 4xx or 503.
    private func answer(
        _ request: Request, _ body: (App, Parameters, String) async throws -> some Encodable
    ) async throws -> Response {
        do {
            var app = try await authenticate(request)
            let query = request.uri.queryParameters
            switch query.get("debug") {
            case nil, "false": break
            case "true": app.id = app.id.debug
            case let other?: throw APIError.badRequest("debug must be true or false, not \(other)")
            }
            return try .json(try await body(app, query, query.get("tz") ?? app.timeZone))
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(storeError: error)
        }
    }

    /// The values of the parameters `names` in `query`, in order; a 400 naming them if one
    /// is missing.
    private func required(_ names: [String], in query: Parameters) throws -> [String] {
        let values = names.compactMap { query.get($0) }
        guard values.count == names.count else {
            throw APIError.badRequest("missing " + names.map { "\($0)=" }.joined(separator: ", "))
        }
        return values
    }

    private func authenticate(_ request: Request) async throws -> App {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIError.unauthorized("missing Authorization: Bearer <read token>")
        }
        guard let app = try await apps.app(readToken: String(header.dropFirst("Bearer ".count))) else {
            throw APIError.unauthorized("unknown read token")
        }
        return app
    }
}
