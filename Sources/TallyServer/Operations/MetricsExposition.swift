import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus

/// `GET /metrics`: the registry's metrics in Prometheus' text format, for loopback clients,
/// or others with the configured bearer token (``ServerConfiguration/metricsToken``).
///
/// The registry is filled through swift-metrics' `MetricsSystem` bootstrapped with a
/// `PrometheusMetricsFactory` over it, as `tally serve` does: the ingest routes' counters
/// (``IngestMetrics``), the store's group commits and disk waits (`StoreMetrics`), and the
/// dashboard's open pages.
struct MetricsExposition {
    let registry: PrometheusCollectorRegistry
    let token: String?

    func serve(_ request: Request, context: some RequestContext) throws -> Response {
        guard Self.allows(address: IngestController.address(of: context), authorization: request.headers[.authorization], token: token)
        else {
            throw APIError.unauthorized("metrics are served to loopback clients, or with the configured bearer token")
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }

    /// Whether a client at `address` (`nil` if unknown) sending `authorization` may read the
    /// metrics: from loopback, or with `Bearer <token>` when a token is configured. The token
    /// is compared by its SHA-256 digest, whose comparison takes the same time wherever the
    /// texts differ.
    static func allows(address: String?, authorization: String?, token: String?) -> Bool {
        if let address, IngestController.isLoopback(address) { return true }
        guard let token, let authorization, authorization.hasPrefix("Bearer ") else { return false }
        return SHA256.hash(data: Data(authorization.dropFirst("Bearer ".count).utf8)) == SHA256.hash(data: Data(token.utf8))
    }
}
