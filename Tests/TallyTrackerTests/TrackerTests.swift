import Foundation
import Locking
@_spi(Wire) import TallyEvent
import Testing

@testable import TallyTracker

@Suite("Tracking")
struct TrackerTests {
    @Test("Events carry every field of the HTTP contract")
    func eventsCarryContractFields() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let clock = ManualClock()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport, clock: clock))
            let first = try #require(tracker.track("bill_created", ["amount": 12.5, "note": "lunch", "labels": 2, "shared": false, "tip": nil]))
            tracker.identify("user-42")
            let second = try #require(tracker.screen("Home"))
            let report = await tracker.flush()

            #expect(report.sent == 2)
            #expect(report.pending == 0)
            let request = try #require(transport.requests.first)
            #expect(request.url.absoluteString == "https://tally.example/api/v1/events")
            #expect(request.method == "POST")
            #expect(request.headers["X-App-Key"] == "test-key")
            #expect(request.headers["Content-Type"] == "application/json")
            #expect(request.headers["Content-Encoding"] == nil)
            let body = bodyObject(of: request)
            #expect(Date(wireTimestamp: try #require(body["sent_at"] as? String)) != nil)

            let events = eventObjects(in: request)
            try #require(events.count == 2)
            let bill = events[0]
            let screen = events[1]
            #expect(bill["id"] as? String == first.uuidString.lowercased())
            #expect(bill["name"] as? String == "bill_created")
            let timestamp = try #require(bill["timestamp"] as? String)
            let parsed = try #require(Date(wireTimestamp: timestamp))
            #expect(abs(parsed.timeIntervalSince(clock.now())) < 0.001)
            #expect(bill["user_id"] as? String == tracker.anonymousID)
            #expect(bill["app_version"] as? String == "1.2.3")
            #expect(bill["platform"] as? String == "testOS")
            let properties = try #require(bill["properties"] as? [String: Any])
            #expect(properties["amount"] as? Double == 12.5)
            #expect(properties["note"] as? String == "lunch")
            #expect(properties["labels"] as? Int == 2)
            #expect(properties["shared"] as? Bool == false)
            #expect(properties["tip"] is NSNull)

            #expect(screen["id"] as? String == second.uuidString.lowercased())
            #expect(screen["name"] as? String == "screen_view")
            #expect((screen["properties"] as? [String: Any])?["screen"] as? String == "Home")
            #expect(screen["user_id"] as? String == "user-42")
            #expect(screen["session_id"] as? String == bill["session_id"] as? String)
            #expect(UUID(uuidString: try #require(bill["session_id"] as? String)) != nil)
        }
    }

    @Test("Event ids are version-7 UUIDs carrying the event's millisecond, so they sort by time")
    func eventIDsAreTimeOrdered() {
        var ids = EventIDGenerator()
        let start: UInt64 = 1_795_313_730_250
        var previous: UUID?
        var seen = Set<UUID>()
        for step in 0..<2_000 {
            let millisecond = start + UInt64(step / 2)  // two ids per millisecond
            let date = Date(timeIntervalSince1970: Double(millisecond) / 1000)
            let id = ids.next(at: date)
            let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 7)  // version
            #expect(bytes[8] >> 6 == 0b10)  // variant
            let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(milliseconds == millisecond)
            if let previous, step % 2 == 0 {
                #expect(withUnsafeBytes(of: previous.uuid) { Array($0) }.lexicographicallyPrecedes(bytes))
            }
            seen.insert(id)
            previous = id
        }
        #expect(seen.count == 2_000)
    }

    @Test("Super-properties go on every event; the event's own values win")
    func superProperties() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            tracker.register(["plan": "pro", "source": "ad"])
            tracker.track("a", ["source": "push"])
            tracker.unregister("plan")
            tracker.track("b")
            _ = await tracker.flush()

            let events = transport.requests.flatMap(eventObjects(in:))
            try #require(events.count == 2)
            let a = try #require(events[0]["properties"] as? [String: String])
            let b = try #require(events[1]["properties"] as? [String: String])
            #expect(a == ["plan": "pro", "source": "push"])
            #expect(b == ["source": "ad"])
        }
    }

    @Test("A new session starts after 30 idle minutes, not before")
    func sessionRollover() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let clock = ManualClock()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport, clock: clock))
            tracker.track("a")
            clock.advance(minutes: 29)
            tracker.track("b")  // idle 29 min: same session
            clock.advance(minutes: 30)
            tracker.track("c")  // idle 30 min: new session
            clock.advance(minutes: 10)
            tracker.track("d")
            _ = await tracker.flush()

            let sessions = transport.requests.flatMap(eventObjects(in:)).map { $0["session_id"] as! String }
            try #require(sessions.count == 4)
            #expect(sessions[0] == sessions[1])
            #expect(sessions[1] != sessions[2])
            #expect(sessions[2] == sessions[3])
        }
    }

    @Test("Opting out deletes the unsent events and stores and sends nothing, across launches, until opting back in")
    func optOut() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let tracker = try Tracker(configuration: testConfiguration(directory, transport: FakeTransport(otherwise: .networkError)))
                tracker.track("queued_1")
                tracker.track("queued_2")
                #expect(await tracker.flush().pending == 2)  // on disk, waiting for the network
                tracker.track("buffered")  // in memory only
                tracker.optOut()
                #expect(tracker.isOptedOut)
                #expect(tracker.track("ignored") == nil)
                #expect(tracker.screen("Ignored") == nil)
                let report = await tracker.flush()
                #expect(report.sent == 0 && report.droppedCount == 0 && report.pending == 0)
            }
            #expect(try storedText(in: directory).contains("queued_") == false)

            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            #expect(tracker.isOptedOut)
            #expect(tracker.track("still_ignored") == nil)
            #expect(await tracker.flush().pending == 0)
            #expect(transport.requests.isEmpty)
            tracker.optIn()
            let id = try #require(tracker.track("counted"))
            _ = await tracker.flush()
            #expect(transport.deliveredIDs == [id.uuidString.lowercased()])
        }
    }

    @Test("The anonymous id is the user until identify, survives relaunches, and reset replaces it with a fresh start")
    func anonymousIDAndReset() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            let anonymous = tracker.anonymousID
            #expect(UUID(uuidString: anonymous) != nil)
            #expect(try Tracker(configuration: testConfiguration(directory, transport: transport)).anonymousID == anonymous)
            tracker.track("browsing")
            tracker.identify("user-42")
            tracker.register(["plan": "pro"])
            tracker.track("bought")
            tracker.reset()
            tracker.track("logged_out")
            _ = await tracker.flush()

            let fresh = tracker.anonymousID
            #expect(fresh != anonymous && UUID(uuidString: fresh) != nil)
            #expect(try Tracker(configuration: testConfiguration(directory, transport: transport)).anonymousID == fresh)
            let events = transport.requests.flatMap(eventObjects(in:))
            try #require(events.count == 3)
            let users = events.map { $0["user_id"] as? String }
            let sessions = events.map { $0["session_id"] as? String }
            let properties = events.map { $0["properties"] as? [String: String] }
            #expect(users == [anonymous, "user-42", fresh])
            #expect(properties == [[:], ["plan": "pro"], [:]])
            #expect(sessions[0] == sessions[1] && sessions[1] != sessions[2])
        }
    }

    @Test("identify with properties also records an identify event of the new user carrying them alone; without, nothing")
    func identifyWithProperties() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            let anonymous = tracker.anonymousID
            tracker.register(["source": "ad"])
            tracker.track("browsing")
            tracker.identify("user-42")  // no properties: no event
            tracker.identify("user-42", properties: ["plan": "pro", "seats": 5])
            tracker.track("bought")
            tracker.identify("", properties: ["plan": "free"])  // an empty id is ignored, properties and all
            _ = await tracker.flush()

            let events = transport.requests.flatMap(eventObjects(in:))
            try #require(events.count == 3)
            #expect(events.map { $0["name"] as? String } == ["browsing", "identify", "bought"])
            #expect(events.map { $0["user_id"] as? String } == [anonymous, "user-42", "user-42"])
            #expect(Set(events.map { $0["session_id"] as? String }).count == 1)
            let traits = try #require(events[1]["properties"] as? [String: Any])
            #expect(traits.count == 2, "the identify event carries no super-property")
            #expect(traits["plan"] as? String == "pro")
            #expect(traits["seats"] as? Int == 5)
            #expect(events[2]["properties"] as? [String: String] == ["source": "ad"])

            // Opted out, identify still changes the user, and records nothing.
            tracker.optOut()
            tracker.identify("user-43", properties: ["plan": "free"])
            tracker.optIn()
            tracker.track("after")
            _ = await tracker.flush()
            let later = transport.requests.flatMap(eventObjects(in:)).dropFirst(3)
            #expect(later.map { $0["name"] as? String } == ["after"])
            #expect(later.map { $0["user_id"] as? String } == ["user-43"])
        }
    }

    @Test("Events carry the configuration's debug flag; it defaults to the build's")
    func debugFlag() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            var configuration = testConfiguration(directory, transport: transport)
            #if DEBUG
                #expect(configuration.isDebug)
            #else
                #expect(!configuration.isDebug)
            #endif
            let seen = Locked<[Bool]>([])
            configuration.beforeSend = { event in
                seen.withLock { $0.append(event.isDebug) }
                return event
            }
            for isDebug in [true, false] {
                configuration.isDebug = isDebug
                try Tracker(configuration: configuration).track("a")
            }
            _ = try await Tracker(configuration: configuration).flush()
            let flags = transport.requests.flatMap(eventObjects(in:)).map { $0["debug"] as? Bool }
            #expect(flags == [true, nil])
            #expect(seen.withLock { $0 } == [true, false])
        }
    }

    @Test("beforeSend can redact properties or drop the event, and drops are counted")
    func beforeSend() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            var configuration = testConfiguration(directory, transport: transport)
            configuration.beforeSend = { event in
                guard event.name != "secret" else { return nil }
                var event = event
                if event.properties["email"] != nil { event.properties["email"] = "[redacted]" }
                return event
            }
            let tracker = try Tracker(configuration: configuration)
            tracker.register(["email": "super@example.com"])
            tracker.track("signup", ["email": "a@example.com", "plan": "pro"])
            tracker.track("secret")
            let report = await tracker.flush()

            #expect(report.sent == 1)
            #expect(report.dropped == [.droppedByBeforeSend: 1])
            let events = transport.requests.flatMap(eventObjects(in:))
            try #require(events.count == 1)
            #expect(events[0]["properties"] as? [String: String] == ["email": "[redacted]", "plan": "pro"])
        }
    }

    @Test("Names must be 1 to 100 characters; bad ones are dropped and counted, never sent")
    func invalidNames() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            #expect(tracker.track("") == nil)
            #expect(tracker.track(String(repeating: "x", count: 101)) == nil)
            #expect(tracker.track(String(repeating: "é", count: 100)) != nil)  // 200 UTF-8 bytes, 100 characters
            let report = await tracker.flush()
            #expect(report.sent == 1)
            #expect(report.dropped == [.invalidName: 2])
        }
    }
}
