import Foundation
import HTTPTypes
import Hummingbird
import TallyStore

/// The ingestion APIs of PostHog and Segment over the collector's own ingest path: an app
/// whose SDK speaks one of them moves to Tally by changing its host, and its events are
/// validated, rate-limited, deduplicated and stored exactly as `POST /v1/events` stores them.
///
/// Both answer as their vendor's servers do: 200 with `{"status": 1}` (PostHog) or
/// `{"success": true}` (Segment) once the valid events are durable, whatever events were
/// refused (those are counted in the app's data health), and errors in the vendor's shape
/// (see ``VendorError``).
struct CompatibilityController {
    let ingest: IngestController

    /// `POST /batch/`, `/capture/`, `/e/` and `/i/v0/e/`: see ``PostHogCapture``. A gzip body
    /// says so with `Content-Encoding: gzip` or, as posthog-js does, `?compression=gzip-js`.
    func postHog(_ request: Request, context: some RequestContext) async throws -> Response {
        do {
            var encoding = request.headers[.contentEncoding]
            if encoding == nil, let compression = request.uri.queryParameters["compression"], compression.hasPrefix("gzip") {
                encoding = "gzip"
            }
            // PostHog's SDKs send the key in the body: a client that sent too many wrong keys
            // is refused before its body is inflated and parsed.
            let client = ingest.limitedAddress(of: request, context: context)
            try ingest.admit(client)
            let body = try await ingest.body(of: request, contentEncoding: encoding)
            let capture = try PostHogCapture(
                body: body, receivedAt: ingest.configuration.now(), maximumEvents: ingest.configuration.maximumBatchEvents)
            let app = try await ingest.app(ingestKey: capture.apiKey ?? "", from: client)
            _ = try await ingest.store(capture.envelope, app: app, from: client, context: context)
            return try .json(["status": 1])
        } catch let error as APIError {
            throw VendorError(error: error, vendor: .postHog)
        }
    }

    /// `POST /v1/batch` (`type` `nil`) and `/v1/track`, `/v1/identify`, `/v1/screen`, `/v1/page`
    /// (one message of `type`): see ``SegmentBatch``. The write key is the user name of HTTP
    /// Basic authentication, checked before the body is read, or else the body's `writeKey`.
    func segment(_ request: Request, context: some RequestContext, type: String?) async throws -> Response {
        do {
            let client = ingest.limitedAddress(of: request, context: context)
            let headerKey = Self.basicUser(request.headers[.authorization])
            let headerApp = if let headerKey { try await ingest.app(ingestKey: headerKey, from: client) } else { nil as App? }
            try ingest.admit(client)
            let body = try await ingest.body(of: request, contentEncoding: request.headers[.contentEncoding])
            let batch = try SegmentBatch(
                body: body, type: type, authenticated: headerApp != nil, receivedAt: ingest.configuration.now(),
                maximumEvents: ingest.configuration.maximumBatchEvents)
            let app = if let headerApp { headerApp } else { try await ingest.app(ingestKey: batch.writeKey ?? "", from: client) }
            _ = try await ingest.store(batch.envelope, app: app, from: client, context: context)
            return try .json(["success": true])
        } catch let error as APIError {
            throw VendorError(error: error, vendor: .segment)
        }
    }

    /// The user name of an `Authorization: Basic …` header, or `nil` without one.
    static func basicUser(_ authorization: String?) -> String? {
        guard let authorization, authorization.count > 6, authorization.prefix(6).lowercased() == "basic " else { return nil }
        guard let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)) else {
            return nil
        }
        let user = String(decoding: decoded, as: UTF8.self).prefix { $0 != ":" }
        return user.isEmpty ? nil : String(user)
    }
}
