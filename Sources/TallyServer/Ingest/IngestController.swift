import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyStore

/// `POST /v1/events`: authenticates the app key, reads (and if asked, inflates) the body
/// within the size limit, validates every event on its own, stores the valid ones in one
/// durable transaction, and answers with what was accepted, duplicated and rejected.
struct IngestController {
    let store: EventStore
    let apps: AppDirectory
    let limiter: RateLimiter?
    let configuration: ServerConfiguration
    let announcer: IngestAnnouncer

    func ingest(_ request: Request, context: some RequestContext) async throws -> Response {
        let app = try await authenticate(request)
        let envelope = try IngestEnvelope(body: try await body(of: request), maximumEvents: configuration.maximumBatchEvents)
        let receivedAt = configuration.now()
        if let limiter, let wait = limiter.take(envelope.events.count, for: app.id, at: receivedAt) {
            throw APIError.tooManyRequests(retryAfter: wait)
        }
        let validator = EventValidator(
            receivedAt: receivedAt, skew: receivedAt.timeIntervalSince(envelope.sentAt),
            maximumAge: app.acceptedEventAge, maximumFuture: configuration.maximumFutureSkew
        )
        var valid: [Event] = []
        var rejected: [Rejection] = []
        var rejectedByReason: [String: Int] = [:]
        valid.reserveCapacity(envelope.events.count)
        for (index, element) in envelope.events.enumerated() {
            switch validator.validate(element) {
            case .success(let event):
                valid.append(event)
            case .failure(let reason):
                rejected.append(Rejection(index: index, reason: reason.message))
                rejectedByReason[reason.code.rawValue, default: 0] += 1
            }
        }
        var (accepted, duplicates) = (0, 0)
        if !valid.isEmpty {
            do {
                let result = try await store.insert(valid, app: app.id)
                (accepted, duplicates) = (result.accepted, result.duplicates)
                announcer.record(app: app.id, acceptedByName: result.acceptedByName)
            } catch {
                context.logger.error("ingest failed to store a batch", metadata: ["app": "\(app.id.rawValue)", "error": "\(error)"])
                throw APIError(storeError: error)
            }
        }
        do {
            // Buffered in memory and written with the next group commit: no wait here.
            try await store.recordIngest(
                app: app.id, at: receivedAt, accepted: accepted, duplicates: duplicates,
                rejectedByReason: rejectedByReason, droppedByReason: envelope.dropped)
        } catch {
            context.logger.error("ingest failed to record data health", metadata: ["app": "\(app.id.rawValue)", "error": "\(error)"])
        }
        return try .json(IngestResponse(accepted: accepted, duplicates: duplicates, rejected: rejected))
    }

    private func authenticate(_ request: Request) async throws -> App {
        guard let key = request.headers[Self.appKey], !key.isEmpty else {
            throw APIError.unauthorized("missing X-App-Key header")
        }
        let app: App?
        do {
            app = try await apps.app(ingestKey: key)
        } catch {
            throw APIError(storeError: error)
        }
        guard let app else { throw APIError.unauthorized("unknown app key") }
        return app
    }

    /// The body's bytes, inflated when `Content-Encoding: gzip`, never more than the limit.
    private func body(of request: Request) async throws -> [UInt8] {
        let limit = configuration.maximumBodyBytes
        let tooLarge = APIError.tooLarge("the body exceeds \(limit) bytes")
        var buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
        switch request.headers[.contentEncoding]?.lowercased() {
        case nil, "identity":
            break
        case "gzip":
            do {
                // One byte more than the limit tells "exactly the limit" from "above it".
                buffer = try buffer.decompress(with: .gzip(), maxSize: limit + 1)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                throw tooLarge
            } catch {
                throw APIError.badRequest("the body is not valid gzip")
            }
            guard buffer.readableBytes <= limit else { throw tooLarge }
        case let other?:
            throw APIError(status: .unsupportedMediaType, message: "unsupported Content-Encoding \(other)")
        }
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    private static let appKey = HTTPField.Name("X-App-Key")!
}
