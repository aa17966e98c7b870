import HTTPTypes
import Hummingbird
import Metrics

/// What the ingest routes report for operators through swift-metrics' `MetricsSystem`, which
/// the application bootstraps (`tally serve` with Prometheus, served at `GET /metrics`; see
/// ``TelemetryExposition``). Without a bootstrap the reports cost nothing.
enum IngestTelemetry {
    /// Counter of ingest requests, by `api` (`tally`, `posthog`, `segment`) and answer `status`.
    static let requests = "tally_ingest_requests_total"
    /// Counter of the events of ingest requests, by `outcome`: `accepted`, `duplicate`, `rejected`.
    static let events = "tally_ingest_events_total"
    /// Counter of rejected events, by `reason` (`RejectionCode`).
    static let rejections = "tally_ingest_rejections_total"
    /// Counter of requests a rate limit refused, by `limit`: `app` or `address`.
    static let rateLimited = "tally_rate_limited_requests_total"

    /// Counts one request's events.
    static func record(accepted: Int, duplicates: Int, rejectedByReason: [String: Int]) {
        let rejected = rejectedByReason.values.reduce(0, +)
        for (outcome, count) in [("accepted", accepted), ("duplicate", duplicates), ("rejected", rejected)] where count > 0 {
            Counter(label: events, dimensions: [("outcome", outcome)]).increment(by: count)
        }
        for (reason, count) in rejectedByReason {
            Counter(label: rejections, dimensions: [("reason", reason)]).increment(by: count)
        }
    }

    /// Answers a request of `api` with `handle`, counting it by the status it gets, an error's
    /// included.
    static func counting(api: String, _ handle: () async throws -> Response) async throws -> Response {
        let status: HTTPResponse.Status
        defer { Counter(label: requests, dimensions: [("api", api), ("status", String(status.code))]).increment() }
        do {
            let response = try await handle()
            status = response.status
            return response
        } catch let error as any HTTPResponseError {
            status = error.status
            throw error
        } catch {
            status = .internalServerError
            throw error
        }
    }
}
