import Foundation
@_spi(Wire) import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import TallyTracker
import Testing

@testable import TallyServer

@Suite("POST /v1/events feeds data health")
struct DataHealthContractTests {
    @Test(arguments: TestDatabase.all) func rejectionsDuplicatesAndDropsShowUpInDataHealth(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let day = utcDay(Date())
            let events = [Batch.event(), Batch.event(["id": "not-a-uuid"]), Batch.event(), Batch.event(["name": ""])]
            for _ in 0..<2 {
                let body = try Self.body(events, dropped: ["capped-bytes": 3, "too-old": 2, "reason-from-a-newer-sdk": 5])
                let response = try await server.ingest(body, key: app.ingestKey)
                #expect(response.status == 200)
            }
            // A batch with nothing valid is counted too.
            #expect(try await server.ingest(Batch.body([Batch.event(["user_id": ""])]), key: app.ingestKey).status == 200)

            let health = try await server.store.metrics.dataHealth(
                ReadScope(app: app.app.id, day: CalendarDay(day)!, timeZone: TimeZone(identifier: "UTC")))
            #expect(health.accepted == 2 && health.duplicates == 2)
            #expect(health.rejected == ["invalid_id": 2, "invalid_name": 2, "invalid_user_id": 1])
            #expect(health.dropped == ["capped-bytes": 6, "too-old": 4])
        }
    }

    @Test(arguments: TestDatabase.all) func hostileDroppedValuesAre400AndRecordNothing(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let tooMany = Dictionary(uniqueKeysWithValues: (0...IngestEnvelope.maximumDropReasons).map { ("r\($0)", 1) })
            let values: [String] = [
                "[]", "\"x\"", "3", "true", #"{"capped-bytes":-1}"#, #"{"capped-bytes":1.5}"#, #"{"capped-bytes":1e30}"#,
                #"{"capped-bytes":"3"}"#, #"{"capped-bytes":null}"#, #"{"capped-bytes":{"a":1}}"#,
                #"{"capped-bytes":1000000001}"#, #"{"capped-bytes":99999999999999999999999}"#,
                String(decoding: try JSONSerialization.data(withJSONObject: tooMany), as: UTF8.self),
            ]
            for value in values {
                let valid = String(decoding: Batch.body([Batch.event()]), as: UTF8.self)
                let body = Data((valid.dropLast() + #","dropped":"# + value + "}").utf8)
                let response = try await server.ingest(body, key: app.ingestKey)
                #expect(response.status == 400, "dropped: \(value)")
            }
            // Repeated reasons add up, capped at the limit.
            let repeated =
                String(decoding: Batch.body([]), as: UTF8.self).dropLast()
                + #","dropped":{"too-old":1000000000,"too-old":1000000000,"bad-request":0}}"#
            #expect(try await server.ingest(Data(repeated.utf8), key: app.ingestKey).status == 200)
            let health = try await server.store.metrics.dataHealth(
                ReadScope(app: app.app.id, day: CalendarDay(utcDay(Date()))!, timeZone: TimeZone(identifier: "UTC")))
            #expect((health.accepted, health.duplicates, health.rejected) == (0, 0, [:]))
            #expect(health.dropped == ["too-old": IngestEnvelope.maximumDropCount])
            #expect(try await server.storedCount(app) == 0)
        }
    }

    /// The data health stores every rejection code and drop reason as its key.
    @Test func everyReasonFitsTheDataHealth() {
        let reasons = RejectionCode.allCases.map(\.rawValue) + DropReason.allCases.map(\.rawValue)
        #expect(reasons.allSatisfy { (1...EventLog.maximumHealthReasonBytes).contains($0.utf8.count) })
    }

    /// A body with `dropped` beside the events.
    static func body(_ events: [[String: Any]], dropped: [String: Int]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["sent_at": Date().formatted(Batch.iso), "events": events, "dropped": dropped])
    }
}
