import Foundation
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

@testable import TallyHTTP

/// ``ReadAdmission``: costly reads run within their bounds, take turns by app, are refused
/// past a reader's waiting bound and answered at their deadline, and nothing is kept once
/// they end.
@Suite struct ReadAdmissionTests {
    /// A gate reads wait at until a test opens it.
    actor Gate {
        private var isOpen = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiters.append($0) }
        }

        func open() {
            isOpen = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    /// What runs at once, and in what order reads started.
    actor Record {
        private(set) var running = 0
        private(set) var mostRunning = 0
        private(set) var runningByHolder: [ReadAdmission.Reader.Holder: Int] = [:]
        private(set) var mostByHolder = 0
        private(set) var started: [String] = []

        func start(_ name: String, _ holder: ReadAdmission.Reader.Holder) {
            running += 1
            mostRunning = max(mostRunning, running)
            runningByHolder[holder, default: 0] += 1
            mostByHolder = max(mostByHolder, runningByHolder[holder]!)
            started.append(name)
        }

        func end(_ holder: ReadAdmission.Reader.Holder) {
            running -= 1
            runningByHolder[holder, default: 0] -= 1
        }
    }

    static func reader(_ app: Int64, _ holder: ReadAdmission.Reader.Holder? = nil) -> ReadAdmission.Reader {
        ReadAdmission.Reader(app: app, holder: holder ?? .token(app: app))
    }

    /// Waits until `condition` holds of the admission's counts (a few seconds at most).
    static func until(_ admission: ReadAdmission, _ condition: ((running: Int, waiting: Int, readers: Int, apps: Int)) -> Bool) async {
        for _ in 0..<2_000 where !condition(admission.counts) { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func readsRunWithinTheBoundInAllAndPerReader() async throws {
        let admission = ReadAdmission(limits: .init(running: 3, runningPerReader: 2, waitingPerReader: 10, deadline: .seconds(3_600)))
        let record = Record()
        let gate = Gate()
        let holders: [ReadAdmission.Reader.Holder] = [.token(app: 1), .user(7), .liveUpdates]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                let holder = holders[index % 2]  // two holders: each may run 2, so 4 could run but 3 do
                group.addTask {
                    try await admission.run(Self.reader(Int64(index % 3), holder)) {
                        await record.start("\(index)", holder)
                        await gate.wait()
                        await record.end(holder)
                    }
                }
            }
            await Self.until(admission) { $0.running == 3 && $0.waiting == 9 }
            for _ in 0..<2_000 where await record.running < 3 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(admission.counts.running == 3)
            #expect(admission.counts.waiting == 9)
            await gate.open()
            try await group.waitForAll()
        }
        #expect(await record.mostRunning == 3)
        #expect(await record.mostByHolder == 2)
        #expect(await record.started.count == 12)
        #expect(admission.counts == (0, 0, 0, 0))
    }

    /// One app's many waiting reads do not hold back another's: when a slot frees, the apps
    /// with reads waiting take turns.
    @Test func waitingReadsTakeTurnsByApp() async throws {
        let admission = ReadAdmission(limits: .init(running: 1, runningPerReader: 1, waitingPerReader: 10, deadline: .seconds(3_600)))
        let record = Record()
        let first = Gate()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await admission.run(Self.reader(9, .user(1))) { await first.wait() }
            }
            await Self.until(admission) { $0.running == 1 }
            // App 1 queues four reads of two readers, then app 2 one.
            for index in 0..<4 {
                group.addTask {
                    try await admission.run(Self.reader(1, .user(Int64(10 + index % 2)))) { await record.start("a\(index)", .user(0)) }
                }
                await Self.until(admission) { $0.waiting == index + 1 }
            }
            group.addTask { try await admission.run(Self.reader(2)) { await record.start("b", .user(0)) } }
            await Self.until(admission) { $0.waiting == 5 }
            await first.open()
            try await group.waitForAll()
        }
        #expect(await record.started == ["a0", "b", "a1", "a2", "a3"])
    }

    @Test func aReaderPastItsWaitingBoundIsRefusedAtOnceAndOthersStillWait() async throws {
        let admission = ReadAdmission(limits: .init(running: 1, runningPerReader: 1, waitingPerReader: 2, deadline: .seconds(3_600)))
        let gate = Gate()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask { try await admission.run(Self.reader(1)) { await gate.wait() } }
            }
            await Self.until(admission) { $0.running == 1 && $0.waiting == 2 }
            await #expect(throws: ReadAdmission.Overloaded.self) { try await admission.run(Self.reader(1)) {} }
            // Another reader of the same app is not refused: it waits its turn.
            group.addTask { try await admission.run(Self.reader(1, .user(3))) {} }
            await Self.until(admission) { $0.waiting == 3 }
            #expect(admission.counts.waiting == 3)
            await gate.open()
            try await group.waitForAll()
        }
        #expect(admission.counts == (0, 0, 0, 0))
    }

    /// At the deadline a running read is cancelled and its caller answered; its slot stays
    /// taken until its work stops, and a read waiting past the deadline is answered too.
    @Test func theDeadlineAnswersRunningAndWaitingReads() async throws {
        let admission = ReadAdmission(limits: .init(running: 1, runningPerReader: 1, waitingPerReader: 5, deadline: .milliseconds(200)))
        let release = Gate()
        let running = Task {
            try await admission.run(Self.reader(1)) {
                // Work that ignores cancellation until released: the slot stays taken meanwhile.
                await release.wait()
                return Task.isCancelled
            }
        }
        await Self.until(admission) { $0.running == 1 }
        let waiting = Task { try await admission.run(Self.reader(2)) { 0 } }
        await #expect(throws: ReadAdmission.Overloaded.self) { try await waiting.value }
        await #expect(throws: ReadAdmission.Overloaded.self) { try await running.value }
        #expect(admission.counts.running == 1, "the work still runs")
        #expect(admission.counts.waiting == 0)
        await release.open()
        await Self.until(admission) { $0.running == 0 }
        #expect(admission.counts == (0, 0, 0, 0))
        do {
            _ = try await admission.run(Self.reader(1)) { 1 }
        } catch {
            Issue.record("a read after the slot freed failed: \(error)")
        }
    }

    @Test func aCallerCancelledWhileWaitingLeavesTheQueue() async throws {
        let admission = ReadAdmission(limits: .init(running: 1, runningPerReader: 1, waitingPerReader: 5, deadline: .seconds(3_600)))
        let gate = Gate()
        let holding = Task { try await admission.run(Self.reader(1)) { await gate.wait() } }
        await Self.until(admission) { $0.running == 1 }
        let waiting = Task { try await admission.run(Self.reader(2)) { 0 } }
        await Self.until(admission) { $0.waiting == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(admission.counts.waiting == 0)
        await gate.open()
        try await holding.value
        #expect(admission.counts == (0, 0, 0, 0))
    }

    /// Thousands of reads of many readers and apps, some past their deadline, some refused,
    /// some cancelled: never more running than the bounds, and nothing kept once all end.
    @Test func manyRoundsStayWithinTheBoundsAndLeaveNothing() async throws {
        let admission = ReadAdmission(limits: .init(running: 3, runningPerReader: 2, waitingPerReader: 4, deadline: .milliseconds(50)))
        let record = Record()
        for round in 0..<20 {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    let app = Int64(index % 7)
                    let holder: ReadAdmission.Reader.Holder = index % 3 == 0 ? .user(Int64(index % 5)) : .token(app: app)
                    group.addTask {
                        let read = Task {
                            try await admission.run(Self.reader(app, holder)) {
                                await record.start("", holder)
                                try? await Task.sleep(for: .milliseconds((round + index) % 4 * 10))
                                await record.end(holder)
                            }
                        }
                        if index % 11 == 0 { read.cancel() }
                        _ = await read.result
                    }
                }
            }
        }
        await Self.until(admission) { $0 == (0, 0, 0, 0) }
        #expect(admission.counts == (0, 0, 0, 0))
        #expect(await record.mostRunning <= 3)
        #expect(await record.mostByHolder <= 2)
        #expect(await record.running == 0)
    }

    // MARK: Over HTTP

    /// A token with a read running and none allowed to wait is answered 503 with
    /// `Retry-After` at once; ingest and `/healthz` do not wait behind its reads.
    @Test(arguments: TestDatabase.all) func theAPIAnswers503WithRetryAfter(database: TestDatabase) async throws {
        var settings = ServerSettings()
        settings.reads = .init(running: 1, runningPerReader: 1, waitingPerReader: 0, deadline: .seconds(3_600))
        try await LiveServer.with(database: database, configuration: settings) { server in
            let app = try await server.makeApp()
            let id = app.app.id.rawValue
            let day = utcDay(Date())
            let gate = Gate()
            let holding = Task { try await server.server.reads.run(Self.reader(id)) { await gate.wait() } }
            await Self.until(server.server.reads) { $0.running == 1 }

            // The token has a read running and may not queue one: refused at once.
            let refused = try await server.request("/v1/metrics?date=\(day)", headers: ["Authorization": "Bearer \(app.readToken)"])
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] == "3600")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("busy"))

            // Ingest and /healthz are served meanwhile.
            let ingest = try await server.ingest(Batch.body([Batch.event(name: "open", at: Date(), user: "u")]), key: app.ingestKey)
            #expect(ingest.json["accepted"] as? Int == 1)
            #expect(try await server.request("/healthz").status == 200)

            await gate.open()
            _ = try await holding.value
            await Self.until(server.server.reads) { $0.running == 0 }
            let served = try await server.request("/v1/metrics?date=\(day)", headers: ["Authorization": "Bearer \(app.readToken)"])
            #expect(served.status == 200)
            #expect(served.headers["cache-control"] == "no-store")
        }
    }
}
