import CompressNIO
import Foundation
import NIOCore
@_spi(Wire) import TallyEvent
import TallyHTTP
import TallyStore

/// What `POST /v1/events` makes of a body before anything is stored: the body inflated
/// within the size limit, its JSON parsed, the envelope checked and every event validated on
/// its own.
struct IngestDecoder {
    /// A body's events: the valid ones, and the others with their reasons.
    struct Batch {
        var valid: [Event] = []
        var rejected: [Rejection] = []
        /// Rejections by reason code, for the data health.
        var rejectedByReason: [String: Int] = [:]
        /// The SDK's drops by known reason (see ``IngestEnvelope``).
        var dropped: [String: Int]
    }

    let configuration: ServerSettings

    /// The body's bytes, inflated when `contentEncoding` is gzip, never more than the limit.
    ///
    /// - Throws: 413 above ``ServerSettings/maximumBodyBytes``, 400 for damaged gzip,
    ///   415 for another encoding.
    func inflate(_ body: ByteBuffer, contentEncoding: String?) throws(APIError) -> [UInt8] {
        let limit = configuration.maximumBodyBytes
        let tooLarge = APIError.tooLarge("the body exceeds \(limit) bytes")
        var buffer = body
        guard buffer.readableBytes <= limit else { throw tooLarge }
        switch contentEncoding?.lowercased() {
        case nil, "identity":
            break
        case "gzip":
            do {
                // One byte more than the limit tells "exactly the limit" from "above it".
                buffer = try buffer.decompress(with: .gzip(), maxSize: limit + 1)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                throw tooLarge
            } catch {
                throw .badRequest("the body is not valid gzip")
            }
            guard buffer.readableBytes <= limit else { throw tooLarge }
        case let other?:
            throw APIError(status: .unsupportedMediaType, message: "unsupported Content-Encoding \(other)")
        }
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    /// The envelope of `body`: its JSON parsed and its outer shape checked, the events not
    /// yet validated.
    ///
    /// - Throws: 400 for a body that is not a batch, 413 for too many events.
    func envelope(of body: [UInt8]) throws(APIError) -> IngestEnvelope {
        try IngestEnvelope(body: body, maximumEvents: configuration.maximumBatchEvents)
    }

    /// The events of `envelope` validated one by one, received at `receivedAt` for an app that
    /// accepts events up to `acceptedEventAge` old: a bad event is rejected alone.
    func validate(_ envelope: IngestEnvelope, receivedAt: Date, acceptedEventAge: TimeInterval) -> Batch {
        let validator = EventValidator(
            receivedAt: receivedAt, skew: receivedAt.timeIntervalSince(envelope.sentAt),
            maximumAge: acceptedEventAge, maximumFuture: configuration.maximumFutureSkew
        )
        var batch = Batch(dropped: envelope.dropped)
        batch.valid.reserveCapacity(envelope.events.count)
        for (index, element) in envelope.events.enumerated() {
            do {
                batch.valid.append(try validator.validate(element))
            } catch {
                batch.rejected.append(Rejection(index: index, reason: error.message))
                batch.rejectedByReason[error.code.rawValue, default: 0] += 1
            }
        }
        return batch
    }
}
