import Foundation
public import Hummingbird
import Prometheus
public import TallyHTTP
public import TallyStore

/// The collector: the HTTP API over an ``EventStore``, whose routes ``addRoutes(to:)`` adds
/// to a router (`TallyApplication`, in the TallyApp module, mounts them beside the
/// dashboard's).
///
/// Routes (the HTTP contract other programs depend on):
/// - `POST /v1/events` with `X-App-Key`: a batch of events, optionally gzip-encoded.
/// - PostHog's capture API, `POST /batch/`, `/capture/`, `/e/` and `/i/v0/e/`, and Segment's
///   tracking API, `POST /v1/batch`, `/v1/track`, `/v1/identify`, `/v1/screen` and `/v1/page`,
///   for apps whose SDK speaks one of them (see ``CompatibilityController``).
/// - `GET /v1/metrics?date=…[&tz=…]`, `GET /v1/metrics/range?from=…&to=…[&tz=…]`,
///   `GET /v1/metrics/breakdown`, `GET /v1/revenue?from=…&to=…[&tz=…]`, `GET /v1/retention` and
///   `GET /v1/funnels?from=…&to=…&steps=a,b,c[&window=SECONDS][&breakdown=PROPERTY]` and
///   `GET /v1/paths?from=…&to=…&start=NAME[&kind=event|screen][&direction=after|before][&depth=1…5]`
///   with `Authorization: Bearer <read token>`; every one but the breakdown narrowed to a
///   segment by `filters=` (a `SegmentFilter` in Plausible's syntax, see `MetricsController`).
/// - `GET /v1/users?prefix=…` and `GET /v1/users/{user_id}/events[?before=…]` with the same
///   token: the app's users by the start of their id, and one user's events, newest first
///   (see `AppUserController`).
/// - `GET /v1/segments`, `PUT /v1/segments/{name}` (body `{"filter": "…"}`) and
///   `DELETE /v1/segments/{name}` with the same token: the app's saved segments (see
///   `SavedSegmentController`).
/// - `GET /v1/annotations?from=…&to=…` with the read or write token, `POST /v1/annotations`
///   (body `{"time"|"day", "text"}`) and `DELETE /v1/annotations/{id}` with the write token:
///   the notes the dashboard's charts mark (see `AnnotationController`).
/// - `GET /healthz`.
/// - `GET /openapi.json`: the OpenAPI 3.1 document of every route here (``OpenAPIDocument``).
/// - `GET /metrics`, from loopback or with ``ServerSettings/metricsToken``: the
///   Prometheus metrics of `PrometheusMetricsFactory.defaultRegistry`, which a process fills
///   by bootstrapping `MetricsSystem` with a `PrometheusMetricsFactory` (see ``IngestTelemetry``).
///
/// Live views hear the commits from the store (``EventLog/commits()``), not from the collector.
public struct TallyServer: Sendable {
    /// Where events and apps live.
    public let store: EventStore
    /// Limits, address and clock.
    public let settings: ServerSettings
    /// Where the metrics and timeline routes wait their turn: shared with the dashboard when
    /// both are served.
    public let reads: ReadAdmission

    /// Creates a server over `store`, whose costly reads pass through `reads` (by default
    /// one of its own, with ``ServerSettings/reads``).
    ///
    /// - Throws: ``ConfigurationError`` if a setting of `settings` is out of range.
    public init(store: EventStore, settings: ServerSettings = .init(), reads: ReadAdmission? = nil) throws(ConfigurationError) {
        try settings.validate()
        self.store = store
        self.settings = settings
        self.reads = reads ?? ReadAdmission(limits: settings.reads)
    }

    /// Adds every route of the API to `router`, whose other routes (a dashboard, say) and
    /// middleware it leaves alone (add `LogRequestsMiddleware` and `SecurityHeadersMiddleware`
    /// there).
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let apps = AppDirectory(store: store)
        let ingest = IngestController(
            store: store, apps: apps, appLimiter: settings.rateLimit.map { RateLimiter(limit: $0) },
            addressLimiter: settings.addressRateLimit.map { RateLimiter(limit: $0) },
            wrongKeys: RateLimiter(limit: settings.wrongKeyLimit), configuration: settings
        )
        let metrics = MetricsController(store: store, apps: apps, reads: reads)
        router.post("/v1/events") { request, context in
            try await IngestTelemetry.counting(api: "tally") { try await ingest.ingest(request, context: context) }
        }
        let compatibility = CompatibilityController(ingest: ingest)
        for path in Self.postHogPaths {
            router.post(RouterPath(path)) { request, context in
                try await IngestTelemetry.counting(api: "posthog") { try await compatibility.postHog(request, context: context) }
            }
        }
        for type in [nil] + Self.segmentTypes {
            router.post(RouterPath("/v1/\(type ?? "batch")")) { request, context in
                try await IngestTelemetry.counting(api: "segment") { try await compatibility.segment(request, context: context, type: type) }
            }
        }
        router.get("/v1/metrics") { request, _ in try await metrics.day(request) }
        router.get("/v1/metrics/range") { request, _ in try await metrics.range(request) }
        router.get("/v1/metrics/breakdown") { request, _ in try await metrics.breakdown(request) }
        router.get("/v1/revenue") { request, _ in try await metrics.revenue(request) }
        router.get("/v1/retention") { request, _ in try await metrics.retention(request) }
        router.get("/v1/funnels") { request, _ in try await metrics.funnel(request) }
        router.get("/v1/paths") { request, _ in try await metrics.paths(request) }
        let users = AppUserController(store: store, apps: apps, reads: reads)
        router.get("/v1/users") { request, _ in try await users.search(request) }
        router.get("/v1/users/:user_id/events") { request, context in try await users.timeline(request, context: context) }
        let segments = SavedSegmentController(store: store, apps: apps)
        router.get("/v1/segments") { request, _ in try await segments.list(request) }
        router.put("/v1/segments/:name") { request, context in try await segments.save(request, context: context) }
        router.delete("/v1/segments/:name") { request, context in try await segments.delete(request, context: context) }
        let annotations = AnnotationController(store: store, apps: apps)
        router.get("/v1/annotations") { request, _ in try await annotations.list(request) }
        router.post("/v1/annotations") { request, _ in try await annotations.add(request) }
        router.delete("/v1/annotations/:id") { request, context in try await annotations.delete(request, context: context) }
        router.get("/healthz") { _, _ in try Response.json(["status": "ok"]) }
        router.get("/openapi.json") { _, _ in try OpenAPIDocument.response() }
        let exposition = TelemetryExposition(
            registry: PrometheusMetricsFactory.defaultRegistry, token: settings.metricsToken, proxies: settings.trustedProxies)
        router.get("/metrics") { request, context in try exposition.serve(request, context: context) }
    }

    /// The routes of PostHog's capture API (see ``PostHogCapture``).
    static let postHogPaths = ["/batch/", "/capture/", "/e/", "/i/v0/e/"]
    /// The message types of Segment's API with a route of their own, `/v1/<type>` (see ``SegmentBatch``).
    static let segmentTypes = ["track", "identify", "screen", "page"]
}
