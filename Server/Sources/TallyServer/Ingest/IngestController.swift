import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import NIOCore
import TallyHTTP
import TallyStore

/// `POST /v1/events`: authenticates the app key, reads (and if asked, inflates) the body
/// within the size limit, validates every event on its own, stores the valid ones in one
/// durable transaction, and answers with what was accepted, duplicated and rejected.
struct IngestController {
    let store: EventStore
    let apps: AppDirectory
    let appLimiter: RateLimiter<AppID>?
    let addressLimiter: RateLimiter<IPAddress>?
    /// Wrong or missing keys per client address (``ServerSettings/wrongKeyLimit``).
    let wrongKeys: RateLimiter<IPAddress>
    let configuration: ServerSettings

    func ingest(_ request: Request, context: some RequestContext) async throws -> Response {
        let client = limitedAddress(of: request, context: context)
        let app = try await app(ingestKey: request.headers[Self.appKey] ?? "", from: client)
        let decoder = IngestDecoder(configuration: configuration)
        let envelope = try decoder.envelope(of: await body(of: request, contentEncoding: request.headers[.contentEncoding]))
        return try .json(await store(envelope, app: app, from: client, context: context))
    }

    /// Refuses `client` if it sent more wrong keys lately than the configuration allows: called
    /// before the body is read on routes whose key may be in the body, so that guessing keys
    /// costs the server no more than a refusal once the budget is spent.
    ///
    /// - Throws: 429 with the wait.
    func admit(_ client: IPAddress?) throws(APIError) {
        guard let client, let wait = wrongKeys.wait(for: client, at: configuration.now()) else { return }
        Counter(label: IngestTelemetry.rateLimited, dimensions: [("limit", "wrong_key")]).increment()
        throw APIError.tooManyRequests(retryAfter: wait)
    }

    /// The app whose ingest key is `key`, presented by `client`; a missing or unknown key
    /// counts against the client's budget of wrong keys.
    ///
    /// - Throws: 429 when that budget is spent (see ``admit(_:)``), 401 for a key that names
    ///   no app, 503 if the store cannot be read.
    func app(ingestKey key: String, from client: IPAddress?) async throws(APIError) -> App {
        try admit(client)
        let app: App?
        do {
            app = key.isEmpty ? nil : try await apps.app(ingestKey: key)
        } catch {
            throw APIError(storeError: error)
        }
        guard let app else {
            if let client { _ = wrongKeys.take(1, for: client, at: configuration.now()) }
            throw APIError.unauthorized(key.isEmpty ? "missing app key" : "unknown app key")
        }
        return app
    }

    /// The body of `request`, inflated when `contentEncoding` is gzip, within the size limit
    /// (see ``IngestDecoder/inflate(_:contentEncoding:)``).
    func body(of request: Request, contentEncoding: String?) async throws -> [UInt8] {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maximumBodyBytes)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge("the body exceeds \(configuration.maximumBodyBytes) bytes")
        }
        return try IngestDecoder(configuration: configuration).inflate(body, contentEncoding: contentEncoding)
    }

    /// Stores the events of `envelope` for `app`, sent by `client` (the address the limits
    /// count by, ``limitedAddress(of:context:)``): rate limits first, then each event validated
    /// on its own, the valid ones stored in one durable transaction, and the outcome recorded in
    /// the app's data health.
    ///
    /// - Throws: 429 when a rate limit refuses the batch, 400 or 503 when the store does.
    func store(_ envelope: IngestEnvelope, app: App, from client: IPAddress?, context: some RequestContext) async throws -> IngestResponse {
        let receivedAt = configuration.now()
        // Limits before validation: a refused batch costs no more than its parse.
        if let addressLimiter, let address = client,
            let wait = addressLimiter.take(envelope.events.count, for: address, at: receivedAt)
        {
            Counter(label: IngestTelemetry.rateLimited, dimensions: [("limit", "address")]).increment()
            throw APIError.tooManyRequests(retryAfter: wait)
        }
        if let appLimiter, let wait = appLimiter.take(envelope.events.count, for: app.id, at: receivedAt) {
            Counter(label: IngestTelemetry.rateLimited, dimensions: [("limit", "app")]).increment()
            throw APIError.tooManyRequests(retryAfter: wait)
        }
        let batch = IngestDecoder(configuration: configuration).validate(
            envelope, receivedAt: receivedAt, acceptedEventAge: app.acceptedEventAge)
        var (accepted, duplicates) = (0, 0)
        if !batch.valid.isEmpty {
            do {
                let result = try await store.events.insert(batch.valid, app: app.id)
                (accepted, duplicates) = (result.accepted, result.duplicates)
            } catch {
                context.logger.error("ingest failed to store a batch", metadata: ["app": "\(app.id.rawValue)", "error": "\(error)"])
                throw APIError(storeError: error)
            }
        }
        do {
            // Buffered in memory and written with the next group commit: no wait here.
            try await store.events.recordIngest(
                app: app.id, at: receivedAt, accepted: accepted, duplicates: duplicates,
                rejectedByReason: batch.rejectedByReason, droppedByReason: batch.dropped)
        } catch {
            context.logger.error("ingest failed to record data health", metadata: ["app": "\(app.id.rawValue)", "error": "\(error)"])
        }
        IngestTelemetry.record(accepted: accepted, duplicates: duplicates, rejectedByReason: batch.rejectedByReason)
        return IngestResponse(accepted: accepted, duplicates: duplicates, rejected: batch.rejected)
    }

    private static let appKey = HTTPField.Name("X-App-Key")!

    /// The client's address (see ``ClientAddress``), or `nil` when the context does not know
    /// it or it is a loopback address (a reverse proxy on this host, not configured as trusted,
    /// speaks for every client): what the address limits count by.
    func limitedAddress(of request: Request, context: some RequestContext) -> IPAddress? {
        guard let client = ClientAddress(of: request, context: context, proxies: configuration.trustedProxies),
            !client.address.isLoopback
        else { return nil }
        return client.address
    }
}
