import Foundation
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

@Suite("POST /v1/events contract")
struct IngestContractTests {
    @Test(arguments: TestDatabase.all) func acceptsAValidBatchAndCountsResentIdsAsDuplicates(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let events = (0..<20).map { _ in Batch.event() }
            let first = try await server.ingest(Batch.body(events), key: app.ingestKey)
            #expect(first.status == 200)
            #expect(first.json["accepted"] as? Int == 20)
            #expect(first.json["duplicates"] as? Int == 0)
            #expect((first.json["rejected"] as? [Any])?.isEmpty == true)

            let again = try await server.ingest(Batch.body(events), key: app.ingestKey)
            #expect(again.status == 200)
            #expect(again.json["accepted"] as? Int == 0)
            #expect(again.json["duplicates"] as? Int == 20)
            #expect(try await server.storedCount(app) == 20)
        }
    }

    @Test(arguments: TestDatabase.all) func aBadEventIsRejectedAloneWithAReason(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let events: [[String: Any]] = [
                Batch.event(),
                Batch.event(["id": "not-a-uuid"]),
                Batch.event(["name": String(repeating: "x", count: 101)]),
                Batch.event(),
                Batch.event(["timestamp": "2026-11-22 10:00:00"]),
                Batch.event(["user_id": "REMOVE"]),
                Batch.event(["properties": ["nested": ["a": 1]]]),
                Batch.event(["app_version": 3]),
                "just a string" as Any,
                Batch.event(["name": ""]),
            ].map { $0 as? [String: Any] ?? ["bogus": $0] }
            var body = Batch.body(events)
            // Element 8 must be a bare string, not an object: patch it into the JSON.
            body = Data(
                String(decoding: body, as: UTF8.self)
                    .replacingOccurrences(of: #"{"bogus":"just a string"}"#, with: #""just a string""#).utf8)
            let response = try await server.ingest(body, key: app.ingestKey)
            #expect(response.status == 200)
            #expect(response.json["accepted"] as? Int == 2)
            let rejected = try #require(response.json["rejected"] as? [[String: Any]])
            #expect(rejected.compactMap { $0["index"] as? Int } == [1, 2, 4, 5, 6, 7, 8, 9])
            let reasons = rejected.compactMap { $0["reason"] as? String }
            #expect(reasons[0].contains("id"))
            #expect(reasons[1].contains("name"))
            #expect(reasons[2].contains("timestamp"))
            #expect(reasons[3].contains("user_id"))
            #expect(reasons[4].contains("nested"))
            #expect(reasons[5].contains("app_version"))
            #expect(reasons[6].contains("object"))
            #expect(try await server.storedCount(app) == 2)
        }
    }

    /// PostgreSQL cannot store U+0000: an event holding it in any text or key is refused
    /// alone, whatever the database, and the others are stored.
    @Test(arguments: TestDatabase.all) func textsHoldingNULAreRefusedAlone(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let nul = "a\u{0}b"
            let events = [
                Batch.event(), Batch.event(["name": nul]), Batch.event(["user_id": nul]), Batch.event(["session_id": nul]),
                Batch.event(["properties": [nul: 1]]), Batch.event(["properties": ["note": nul]]), Batch.event(["name": "a\u{1}b"]),
            ]
            let response = try await server.ingest(Batch.body(events), key: app.ingestKey)
            #expect(response.json["accepted"] as? Int == 2)
            let rejected = try #require(response.json["rejected"] as? [[String: Any]])
            #expect(rejected.compactMap { $0["index"] as? Int } == [1, 2, 3, 4, 5])
            #expect(rejected.allSatisfy { ($0["reason"] as? String)?.contains("U+0000") == true })
            #expect(try await server.storedCount(app) == 2)
        }
    }

    @Test(arguments: TestDatabase.all) func unknownOrMissingKeyIs401(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            _ = try await server.makeApp()
            let body = Batch.body([Batch.event()])
            #expect(try await server.ingest(body, key: "ik_unknown").status == 401)
            let missing = try await server.request("/v1/events", method: "POST", body: body)
            #expect(missing.status == 401)
        }
    }

    @Test(arguments: TestDatabase.all) func bodiesThatAreNotTheContractShapeAre400(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let valid = String(decoding: Batch.body([Batch.event()]), as: UTF8.self)
            let bodies: [Data] = [
                Data("garbage".utf8),
                Data(valid.prefix(valid.count / 2).utf8),  // truncated
                Data("[]".utf8),
                Data(#"{"sent_at":"2026-11-22T10:00:00Z"}"#.utf8),
                Data(#"{"sent_at":"2026-11-22T10:00:00Z","events":{}}"#.utf8),
                Data(#"{"events":[]}"#.utf8),
                Data(#"{"sent_at":"yesterday","events":[]}"#.utf8),
                Data(String(repeating: "[", count: 100_000).utf8),  // deeply nested
                Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]),  // invalid UTF-8 in a key
                Data(),
            ]
            for body in bodies {
                let response = try await server.ingest(body, key: app.ingestKey)
                #expect(response.status == 400, "body: \(String(decoding: body.prefix(60), as: UTF8.self))")
                #expect((response.json["error"] as? String)?.isEmpty == false)
            }
        }
    }

    @Test(arguments: TestDatabase.all) func moreThanAThousandEventsIs413(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let response = try await server.ingest(Batch.body((0..<1001).map { _ in Batch.event() }), key: app.ingestKey)
            #expect(response.status == 413)
            let thousand = try await server.ingest(Batch.body((0..<1000).map { _ in Batch.event() }), key: app.ingestKey)
            #expect(thousand.status == 200)
        }
    }

    @Test(arguments: TestDatabase.all) func bodiesAboveOneMebibyteAre413EvenWhenGzipped(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let padding = String(repeating: "x", count: 1 << 20)
            let huge = Batch.body([Batch.event(["properties": ["note": padding]])])
            #expect(try await server.ingest(huge, key: app.ingestKey).status == 413)

            // A gzip bomb: 10 MiB of zeros compress to about 10 KiB.
            let bomb = try await gzip(Data(count: 10 << 20))
            #expect(bomb.count < 64 << 10)
            let response = try await server.ingest(bomb, key: app.ingestKey, headers: ["Content-Encoding": "gzip"])
            #expect(response.status == 413)
        }
    }

    @Test(arguments: TestDatabase.all) func gzipBodiesAreAcceptedAndCorruptOnesAre400(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let body = try await gzip(Batch.body((0..<3).map { _ in Batch.event() }))
            let accepted = try await server.ingest(body, key: app.ingestKey, headers: ["Content-Encoding": "gzip"])
            #expect(accepted.status == 200)
            #expect(accepted.json["accepted"] as? Int == 3)
            var corrupt = body
            corrupt[corrupt.count / 2] ^= 0xFF
            let refused = try await server.ingest(corrupt, key: app.ingestKey, headers: ["Content-Encoding": "gzip"])
            #expect(refused.status == 400)
        }
    }

    @Test(arguments: TestDatabase.all) func aKeyAboveItsRateGets429WithRetryAfter(database: TestDatabase) async throws {
        var configuration = ServerSettings()
        // One event per 1,000 s: however slow the first request, the second finds the bucket empty.
        configuration.rateLimit = RateLimit(eventsPerSecond: 0.001, burst: 10)
        try await LiveServer.with(database: database, configuration: configuration) { server in
            let app = try await server.makeApp()
            let first = try await server.ingest(Batch.body((0..<10).map { _ in Batch.event() }), key: app.ingestKey)
            #expect(first.status == 200)
            let second = try await server.ingest(Batch.body((0..<5).map { _ in Batch.event() }), key: app.ingestKey)
            #expect(second.status == 429)
            #expect(Int(second.headers["retry-after"] ?? "") ?? 0 >= 1)
            #expect(try await server.storedCount(app) == 10)
        }
    }

    @Test(arguments: TestDatabase.all) func clockSkewIsCorrectedFromSentAtAndTheDeviceTimeIsKept(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            // The device clock runs two hours behind.
            let deviceNow = now.addingTimeInterval(-7200)
            let deviceEventTime = deviceNow.addingTimeInterval(-300)
            let response = try await server.ingest(
                Batch.body([Batch.event(at: deviceEventTime)], sentAt: deviceNow), key: app.ingestKey
            )
            let answered = Date()
            #expect(response.json["accepted"] as? Int == 1)
            let stored = try #require(try await server.storedEvents(app).first)
            // The server received the batch between `now` and `answered`, 300 s after the event
            // by the device's clock (a bound that holds however long the request took).
            #expect(stored.timestamp >= now.addingTimeInterval(-300.01) && stored.timestamp <= answered.addingTimeInterval(-299.99))
            #expect(abs(stored.deviceTimestamp.timeIntervalSince(deviceEventTime)) < 0.002)
        }
    }

    @Test(arguments: TestDatabase.all) func eventsTooOldOrInTheFutureAreRejected(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            let events = [
                Batch.event(at: now.addingTimeInterval(-31 * 86_400)),
                Batch.event(at: now.addingTimeInterval(-29 * 86_400)),
                Batch.event(at: now.addingTimeInterval(11 * 60)),
                Batch.event(at: now.addingTimeInterval(9 * 60)),
            ]
            let response = try await server.ingest(Batch.body(events, sentAt: now), key: app.ingestKey)
            #expect(response.json["accepted"] as? Int == 2)
            let rejected = try #require(response.json["rejected"] as? [[String: Any]])
            #expect(rejected.compactMap { $0["index"] as? Int } == [0, 2])
            #expect((rejected[0]["reason"] as? String)?.contains("older") == true)
            #expect((rejected[1]["reason"] as? String)?.contains("future") == true)
        }
    }

    /// Live views refresh from the store's commits: they count only what was newly stored.
    @Test(arguments: TestDatabase.all) func committedBatchesAreCommitsWithoutDuplicates(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            var commits = server.store.events.commits().makeAsyncIterator()
            let stored = Batch.event(name: "b")
            _ = try await server.ingest(Batch.body([stored]), key: app.ingestKey)
            #expect(await commits.next() == EventsCommitted(app: app.app.id, count: 1))

            let fresh = Batch.event(name: "a")
            let batch = [fresh, Batch.event(name: "a"), fresh, stored, Batch.event(name: "b")]
            let answer = try await server.ingest(Batch.body(batch), key: app.ingestKey)
            #expect(answer.json["duplicates"] as? Int == 2)
            #expect(await commits.next() == EventsCommitted(app: app.app.id, count: 3))
        }
    }

    /// A change to an app made elsewhere (here straight in the store, as `tally app` does
    /// from another process) is seen by the running server without a restart.
    @Test(arguments: TestDatabase.all) func appChangesTakeEffectWithoutARestart(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp(timeZone: "UTC")
            let today = utcDay(Date())
            #expect(try await server.metrics("/v1/metrics?date=\(today)", token: app.readToken).json["tz"] as? String == "UTC")
            _ = try await server.store.apps.update(app.app.id, timeZone: "Asia/Kathmandu")
            let rotated = try await server.store.apps.rotateKeys(app.app.id)

            var seen: (tz: String?, oldKey: Int, newKey: Int) = (nil, 0, 0)
            for _ in 0..<200 {  // the directory re-reads an app at least every second
                seen.tz = try await server.metrics("/v1/metrics?date=\(today)", token: rotated.readToken).json["tz"] as? String
                seen.oldKey = try await server.ingest(Batch.body([Batch.event()]), key: app.ingestKey).status
                seen.newKey = try await server.ingest(Batch.body([Batch.event()]), key: rotated.ingestKey).status
                if seen == ("Asia/Kathmandu", 401, 200) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(seen == ("Asia/Kathmandu", 401, 200))
        }
    }

    /// A rate, burst or limit of zero or less would divide by zero or reject everything at
    /// the first request; the server refuses it when it is made.
    @Test(arguments: [
        (RateLimit(eventsPerSecond: 0, burst: 10), "rateLimit.eventsPerSecond"),
        (RateLimit(eventsPerSecond: -5, burst: 10), "rateLimit.eventsPerSecond"),
        (RateLimit(eventsPerSecond: .nan, burst: 10), "rateLimit.eventsPerSecond"),
        (RateLimit(eventsPerSecond: .infinity, burst: 10), "rateLimit.eventsPerSecond"),
        (RateLimit(eventsPerSecond: 10, burst: 0), "rateLimit.burst"),
        (RateLimit(eventsPerSecond: 10, burst: -1), "rateLimit.burst"),
    ])
    func aRateLimitOfZeroOrLessIsRefusedAtStart(limit: RateLimit, setting: String) async throws {
        var configuration = ServerSettings()
        configuration.rateLimit = limit
        await #expect { try await LiveServer.with(configuration: configuration) { _ in } } throws: { error in
            (error as? ConfigurationError)?.setting == setting
        }
    }

    @Test func otherLimitsOfZeroOrLessAreRefusedAtStart() throws {
        let store = try EventStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("tally-config-\(UUID()).sqlite").path)
        let settings: [(String, (inout ServerSettings) -> Void)] = [
            ("port", { $0.port = -1 }), ("port", { $0.port = 70_000 }),
            ("maximumBatchEvents", { $0.maximumBatchEvents = 0 }), ("maximumBodyBytes", { $0.maximumBodyBytes = -1 }),
            ("maximumFutureSkew", { $0.maximumFutureSkew = -1 }), ("maximumFutureSkew", { $0.maximumFutureSkew = .nan }),
            ("maximumConnections", { $0.maximumConnections = 0 }), ("maximumHeaderBytes", { $0.maximumHeaderBytes = -1 }),
            ("maximumHeaderFields", { $0.maximumHeaderFields = 0 }), ("idleTimeout", { $0.idleTimeout = 0 }),
            ("idleTimeout", { $0.idleTimeout = .infinity }), ("idleTimeout", { $0.idleTimeout = 1e300 }),
            ("maximumConnectionsPerAddress", { $0.maximumConnectionsPerAddress = 0 }),
            ("requestHeadTimeout", { $0.requestHeadTimeout = 0 }), ("requestHeadTimeout", { $0.requestHeadTimeout = -.nan }),
            ("wrongKeyLimit.burst", { $0.wrongKeyLimit.burst = 0 }),
        ]
        for (setting, change) in settings {
            var configuration = ServerSettings()
            change(&configuration)
            #expect { try TallyServer(store: store, settings: configuration) } throws: { error in
                (error as? ConfigurationError)?.setting == setting
            }
        }
        #expect(throws: Never.self) { try TallyServer(store: store) }
    }
}
