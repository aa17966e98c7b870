import Foundation

/// The outer shape of an ingest body, `{"sent_at": "<ISO-8601>", "events": [ ... ]}`,
/// with the events still unvalidated. Anything else is a 400; too many events a 413.
struct IngestEnvelope {
    let sentAt: Date
    let events: [JSONValue]

    init(body: [UInt8], maximumEvents: Int) throws(APIError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(body)
        } catch {
            throw .badRequest("body is not valid JSON: \(error)")
        }
        guard case .object(let fields) = json else {
            throw .badRequest("body must be a JSON object with sent_at and events")
        }
        guard case .array(let events)? = fields["events"] else {
            throw .badRequest("events must be an array")
        }
        guard events.count <= maximumEvents else {
            throw .tooLarge("a batch holds at most \(maximumEvents) events, this one \(events.count)")
        }
        guard case .string(let sentAtText)? = fields["sent_at"], let sentAt = Timestamp.parse(sentAtText) else {
            throw .badRequest("sent_at must be an ISO-8601 string with an offset")
        }
        self.sentAt = sentAt
        self.events = events
    }
}
