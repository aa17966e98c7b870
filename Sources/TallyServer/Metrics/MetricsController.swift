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
        try await answer {
            let app = try await authenticate(request)
            let query = request.uri.queryParameters
            guard let date = query.get("date") else { throw APIError.badRequest("missing date=YYYY-MM-DD") }
            return try await store.metrics(app: app.id, date: date, timeZone: query.get("tz") ?? app.timeZone)
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City]`: daily series.
    func range(_ request: Request) async throws -> Response {
        try await answer {
            let app = try await authenticate(request)
            let query = request.uri.queryParameters
            guard let from = query.get("from"), let to = query.get("to") else {
                throw APIError.badRequest("missing from=YYYY-MM-DD or to=YYYY-MM-DD")
            }
            return try await store.metricsRange(app: app.id, from: from, to: to, timeZone: query.get("tz") ?? app.timeZone)
        }
    }

    /// `?date=YYYY-MM-DD&event=NAME&property=KEY[&tz=Area/City]`: the day's events named
    /// `event` by the value of `property`, the 50 most frequent values and the others summed.
    func breakdown(_ request: Request) async throws -> Response {
        try await answer {
            let app = try await authenticate(request)
            let query = request.uri.queryParameters
            guard let date = query.get("date"), let event = query.get("event"), let property = query.get("property") else {
                throw APIError.badRequest("missing date=YYYY-MM-DD, event=NAME or property=KEY")
            }
            return try await store.breakdown(
                app: app.id, event: event, property: property, date: date, timeZone: query.get("tz") ?? app.timeZone)
        }
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD[&tz=Area/City][&period=day|week]`: the retention
    /// matrix of the days (or weeks, Monday to Sunday) from `from` through `to`.
    func retention(_ request: Request) async throws -> Response {
        try await answer {
            let app = try await authenticate(request)
            let query = request.uri.queryParameters
            guard let from = query.get("from"), let to = query.get("to") else {
                throw APIError.badRequest("missing from=YYYY-MM-DD or to=YYYY-MM-DD")
            }
            let periodText = query.get("period") ?? RetentionPeriod.day.rawValue
            guard let period = RetentionPeriod(rawValue: periodText) else {
                throw APIError.badRequest("period must be day or week, not \(periodText.prefix(40))")
            }
            return try await store.retention(
                app: app.id, from: from, to: to, timeZone: query.get("tz") ?? app.timeZone, period: period)
        }
    }

    private func answer(_ body: () async throws -> some Encodable) async throws -> Response {
        do {
            return try .json(try await body())
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(storeError: error)
        }
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
