import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// `EventStore.write(app:from:to:as:into:)`: the bytes of `tally export`.
@Suite struct ExportTests {
    /// How exports wrote instants with `JSONEncoder`, before they were hand-written.
    static let iso = Date.ISO8601FormatStyle.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)

    /// Strings a hand-written writer could get wrong, and every kind of property.
    static let awkward = ["plain", "quote \" and \\ backslash", "line\nbreak\r\ttab", "comma, here", "slash / and é ✓", "\u{1}\u{1F}"]

    /// Events spread over 2026-03-01, one field awkward each, one without a session.
    func fill(_ store: EventStore) async throws -> (app: AppID, events: [Event]) {
        let app = try await store.apps.create(name: "Export", acceptedEventAge: 3_650 * 86_400).app.id
        var events = Self.awkward.enumerated().map { index, text in
            var made = event(
                name: text, at: instant("2026-03-01T00:00:00Z").addingTimeInterval(Double(index) * 3_600.125), user: text,
                version: text,
                properties: ["text": .string(text), "n": .double(Double(index) / 8), "ok": .bool(index.isMultiple(of: 2)), "nothing": .null])
            made.platform = text
            made.sessionID = index == 0 ? nil : text
            return made
        }
        events.append(event(at: instant("2026-02-28T23:59:59.999Z")))  // outside the range
        try await store.events.insert(events, app: app)
        return (app, Array(events.dropLast()))
    }

    func written(_ store: EventStore, app: AppID, _ format: ExportFormat) async throws -> String {
        var bytes: [UInt8] = []
        _ = try await store.events.write(app: app, from: instant("2026-03-01T00:00:00Z"), to: instant("2026-03-02T00:00:00Z"), as: format) {
            bytes += $0
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: TestDatabase.all) func ndjsonLinesAreTheEventsAsTheAPIEncodesThem(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let (app, events) = try await fill(store)
        let lines = try await written(store, app: app, .ndjson).split(separator: "\n")
        #expect(lines.count == events.count)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Self.iso))
        }
        for (line, event) in zip(lines, events) {
            let written = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary
            let expected = try #require(try JSONSerialization.jsonObject(with: encoder.encode(event)) as? [String: Any])
            #expect(written == NSDictionary(dictionary: expected.merging(["app": app.rawValue]) { $1 }))
        }
        #expect(lines[0].contains(#""app":"#) && !lines[0].contains("session_id"), "no key for a missing session")
    }

    @Test(arguments: TestDatabase.all) func csvRowsHoldEachFieldUnderTheHeader(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let (app, events) = try await fill(store)
        let rows = parseCSV(ExportFormat.csvHeader + (try await written(store, app: app, .csv)))
        #expect(rows.first == ExportFormat.csvHeader.dropLast().split(separator: ",").map(String.init))
        #expect(rows.count == events.count + 1)
        for (row, event) in zip(rows.dropFirst(), events) {
            let properties = try JSONSerialization.jsonObject(with: Data(row[9].utf8)) as? NSDictionary
            let expectedProperties = try JSONSerialization.jsonObject(with: JSONEncoder().encode(event.properties)) as? NSDictionary
            #expect(
                row[0...8] == [
                    "\(app.rawValue)", event.id.uuidString, event.name,
                    event.timestamp.formatted(Self.iso), event.deviceTimestamp.formatted(Self.iso),
                    event.userID, event.sessionID ?? "", event.appVersion, event.platform,
                ])
            #expect(properties == expectedProperties)
        }
    }

    /// Pages follow (timestamp, rowid): events stored newest first, many sharing an
    /// instant, over three pages, each come out once and in time order.
    @Test(arguments: TestDatabase.all) func everyEventComesOutOnceAcrossPagesWhateverTheOrderItWasStoredIn(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Pages").app.id
        let start = instant("2026-03-01T00:00:00Z")
        let count = EventLog.writePageSize * 2 + 500
        let events = (0..<count).reversed().map { event(at: start.addingTimeInterval(Double($0 / 3)), user: "u\($0)") }
        for batch in stride(from: 0, to: count, by: 1_000) {
            try await store.events.insert(Array(events[batch..<min(batch + 1_000, count)]), app: app)
        }
        var chunks = 0
        var bytes: [UInt8] = []
        let written = try await store.events.write(app: app, from: start, to: start.addingTimeInterval(86_400), as: .csv) {
            chunks += 1
            bytes += $0
        }
        let ids = parseCSV(String(decoding: bytes, as: UTF8.self)).map { $0[1] }
        #expect(written == count)
        #expect(chunks == 3)
        #expect(ids.count == count)
        #expect(Set(ids) == Set(events.map(\.id.uuidString)))
        let instants = parseCSV(String(decoding: bytes, as: UTF8.self)).map { $0[3] }
        #expect(instants == instants.sorted())
    }
}

/// Rows of RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks.
func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text.unicodeScalars)[...]
    while let character = characters.popFirst() {
        if quoted {
            if character == "\"" {
                if characters.first == "\"" {
                    field.unicodeScalars.append(characters.removeFirst())
                } else {
                    quoted = false
                }
            } else {
                field.unicodeScalars.append(character)
            }
        } else if character == "\"" {
            quoted = true
        } else if character == "," {
            row.append(field)
            field = ""
        } else if character == "\n" {
            row.append(field)
            rows.append(row)
            (row, field) = ([], "")
        } else {
            field.unicodeScalars.append(character)
        }
    }
    return rows
}
