import Foundation
@_spi(Wire) import TallyEvent
import TallyStore

/// The outer shape of an ingest body, `{"sent_at": "<ISO-8601>", "events": [ ... ], "dropped": {...}}`,
/// with the events still unvalidated. Anything else is a 400; too many events a 413.
///
/// `dropped`, optional, holds the events the SDK dropped since its last delivered upload,
/// by reason: an object of at most ``maximumDropReasons`` members, each a whole number from 0
/// to ``maximumDropCount``. Reasons the server does not know (not a `DropReason`) are
/// ignored, so a newer SDK's reasons never cost it a batch.
struct IngestEnvelope {
    let sentAt: Date
    let events: [JSONValue]
    /// The SDK's drops by known reason.
    let dropped: [String: Int]

    /// The most members `dropped` may have.
    static let maximumDropReasons = 20
    /// The largest count `dropped` may give a reason.
    static let maximumDropCount = EventLog.maximumHealthCount

    /// An envelope of events another vendor's SDK sent, already mapped onto this API's event
    /// objects (see ``PostHogCapture`` and ``SegmentBatch``): no drops.
    init(sentAt: Date, events: [JSONValue]) {
        self.sentAt = sentAt
        self.events = events
        dropped = [:]
    }

    init(body: [UInt8], maximumEvents: Int) throws(APIError) {
        let json = try Self.parse(body)
        guard case .object(let fields) = json else {
            throw .badRequest("body must be a JSON object with sent_at and events")
        }
        guard case .array(let events)? = fields["events"] else {
            throw .badRequest("events must be an array")
        }
        guard events.count <= maximumEvents else {
            throw .tooLarge("a batch holds at most \(maximumEvents) events, this one \(events.count)")
        }
        guard case .string(let sentAtText)? = fields["sent_at"], let sentAt = Date(wireTimestamp: sentAtText) else {
            throw .badRequest("sent_at must be an ISO-8601 string with an offset")
        }
        self.sentAt = sentAt
        self.events = events
        dropped = try Self.dropped(fields["dropped"])
    }

    private static func dropped(_ value: JSONValue?) throws(APIError) -> [String: Int] {
        let invalid = APIError.badRequest(
            "dropped must be an object of at most \(maximumDropReasons) reasons, each a whole number from 0 to \(maximumDropCount)")
        switch value {
        case nil, .null?:
            return [:]
        case .object(let object)? where object.members.count <= maximumDropReasons:
            var dropped: [String: Int] = [:]
            for member in object.members {
                guard case .int(let count) = member.value, (0...maximumDropCount).contains(count) else { throw invalid }
                if DropReason(rawValue: member.key) != nil, count > 0 {
                    dropped[member.key] = min(dropped[member.key, default: 0] + count, maximumDropCount)
                }
            }
            return dropped
        default:
            throw invalid
        }
    }
}

extension IngestEnvelope {
    /// The JSON of an ingest body, whichever API it speaks.
    ///
    /// - Throws: 400 naming where the body stops being valid JSON.
    static func parse(_ body: [UInt8]) throws(APIError) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .badRequest("body is not valid JSON: \(error)")
        }
    }
}
