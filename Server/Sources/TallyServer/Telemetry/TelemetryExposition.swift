import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus
import TallyHTTP

/// `GET /metrics`: the registry's metrics in Prometheus' text format, for clients on this host,
/// or, once a bearer token is configured (``ServerSettings/metricsToken``), for the clients
/// that present it, those on this host included: behind a relay on the host that adds no
/// forwarding header every client looks local.
///
/// The registry is filled through swift-metrics' `MetricsSystem` bootstrapped with a
/// `PrometheusMetricsFactory` over it, as `tally serve` does: the ingest routes' counters
/// (``IngestTelemetry``), the store's group commits and disk waits (`StoreTelemetry`), and the
/// dashboard's open pages.
struct TelemetryExposition {
    let registry: PrometheusCollectorRegistry
    let token: String?
    let proxies: TrustedProxies

    func serve(_ request: Request, context: some RequestContext) throws -> Response {
        let isLocal = ClientAddress(of: request, context: context, proxies: proxies)?.isLocal ?? false
        guard Self.allows(isLocal: isLocal, authorization: request.headers[.authorization], token: token) else {
            throw APIError.unauthorized("metrics are served to loopback clients, or with the configured bearer token")
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }

    /// Whether a client sending `authorization` may read the metrics: with `Bearer <token>`
    /// when a token is configured, else from this host (`isLocal`, see
    /// ``ClientAddress/isLocal``). The token is compared by its SHA-256 digest, whose
    /// comparison takes the same time wherever the texts differ.
    static func allows(isLocal: Bool, authorization: String?, token: String?) -> Bool {
        guard let token else { return isLocal }
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        return SHA256.hash(data: Data(authorization.dropFirst("Bearer ".count).utf8)) == SHA256.hash(data: Data(token.utf8))
    }
}
