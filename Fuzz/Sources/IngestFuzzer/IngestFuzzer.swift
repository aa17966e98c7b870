import CompressNIO
import Foundation
import NIOCore
import TallyEvent
import TallyHTTP
import TallyStore

@testable import TallyServer

/// libFuzzer's target over what `POST /v1/events` makes of a body (``IngestDecoder``): the
/// JSON parser, the envelope, event validation and gzip.
///
/// An input's first byte picks how the rest reaches the decoder:
/// - 0: as a plain body;
/// - 1: as a body sent with `Content-Encoding: gzip`, so the inflater reads arbitrary bytes;
/// - 2: gzip-compressed here first: the outcome must be the plain body's.
///
/// Beyond not crashing, each outcome must keep the HTTP contract: a refused body is a 400, 413
/// or 415; in a decoded batch every event is either valid or rejected alone, and a valid event
/// obeys the rules the store relies on. A broken rule traps, and libFuzzer saves the input.
/// libFuzzer's entry point: called with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    IngestFuzzer.run(mode: input[0] % 3, body: Array(input.dropFirst()))
    return 0
}

enum IngestFuzzer {
    static let configuration = ServerSettings()
    static let decoder = IngestDecoder(configuration: configuration)
    /// A fixed arrival time, so that an input always decodes the same way.
    static let receivedAt = Date(timeIntervalSince1970: 1_795_176_000)  // 2026-11-18T12:00:00Z
    static let acceptedEventAge: TimeInterval = 30 * 86_400

    static func run(mode: UInt8, body: [UInt8]) {
        let plain = ByteBuffer(bytes: body)
        switch mode {
        case 0:
            _ = decode(plain, contentEncoding: nil)
        case 1:
            _ = decode(plain, contentEncoding: "gzip")
        default:
            var source = plain
            guard let compressed = try? source.compress(with: .gzip()) else { fatalError("gzip failed to compress \(body.count) bytes") }
            let direct = decode(plain, contentEncoding: nil)
            let inflated = decode(compressed, contentEncoding: "gzip")
            precondition(direct == inflated, "a gzip body decodes as \(inflated), the same body plain as \(direct)")
        }
    }

    /// What the decoder makes of `body`: the refusal's status and message, or the batch.
    enum Outcome: Equatable {
        case refused(APIError)
        case decoded(valid: [Event], rejected: [Rejection], dropped: [String: Int])
    }

    static func decode(_ body: ByteBuffer, contentEncoding: String?) -> Outcome {
        let envelope: IngestEnvelope
        do {
            envelope = try decoder.envelope(of: decoder.inflate(body, contentEncoding: contentEncoding))
        } catch {
            precondition([.badRequest, .contentTooLarge, .unsupportedMediaType].contains(error.status), "refused with \(error.status)")
            return .refused(error)
        }
        let batch = decoder.validate(envelope, receivedAt: receivedAt, acceptedEventAge: acceptedEventAge)
        check(batch, of: envelope)
        return .decoded(valid: batch.valid, rejected: batch.rejected, dropped: batch.dropped)
    }

    /// Traps unless `batch` keeps the contract for `envelope`'s events.
    static func check(_ batch: IngestDecoder.Batch, of envelope: IngestEnvelope) {
        precondition(batch.valid.count + batch.rejected.count == envelope.events.count, "an event was lost or counted twice")
        let indexes = batch.rejected.map(\.index)
        precondition(indexes == indexes.sorted() && Set(indexes).count == indexes.count, "rejections out of order")
        precondition(indexes.allSatisfy(envelope.events.indices.contains), "a rejection names no event")
        precondition(batch.rejectedByReason.values.reduce(0, +) == batch.rejected.count, "rejections miscounted by reason")
        precondition(envelope.events.count <= configuration.maximumBatchEvents, "a batch above the limit was decoded")
        let oldest = receivedAt.addingTimeInterval(-acceptedEventAge)
        let latest = receivedAt.addingTimeInterval(configuration.maximumFutureSkew)
        for event in batch.valid {
            precondition((1...100).contains(event.name.count), "a valid event has a name of \(event.name.count) characters")
            precondition(
                !event.userID.isEmpty && event.userID.utf8.count <= Event.maximumFieldLength, "a valid event's user_id is out of bounds")
            precondition(event.properties.count <= Event.maximumProperties, "a valid event has \(event.properties.count) properties")
            precondition((oldest...latest).contains(event.timestamp), "a valid event's time \(event.timestamp) is out of range")
            let texts =
                [event.name, event.userID, event.sessionID ?? "", event.appVersion, event.platform]
                + event.properties.keys + event.properties.values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            precondition(!texts.contains { $0.utf8.contains(0) }, "a valid event holds U+0000, which PostgreSQL cannot store")
        }
    }
}
