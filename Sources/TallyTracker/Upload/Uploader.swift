import Foundation
@_spi(Wire) import TallyEvent

/// Moves events from the ``DiskQueue`` to the server, one upload pass at a time.
///
/// A pass sends batches, oldest first, until the queue is empty or an upload fails in a
/// retryable way; then a retry is scheduled after backoff (or the server's `Retry-After`)
/// and run by ``run()``, the background loop. Passes never overlap, so the queue is always
/// settled in order.
actor Uploader {
    private enum Outcome {
        case delivered
        case retry(after: TimeInterval?)
    }

    private let queue: DiskQueue
    private let statistics: Statistics
    private let transport: any Transport
    private let url: URL
    private let appKey: String
    private let batchSize: Int
    private let compresses: Bool
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (TimeInterval) async throws -> Void
    private let random: @Sendable () -> Double
    private let backoff = Backoff()
    private let wakeups: AsyncStream<Void>
    private nonisolated let wakeupContinuation: AsyncStream<Void>.Continuation

    private var isPassRunning = false
    private var passWaiters: [CheckedContinuation<Void, Never>] = []
    private var failures = 0
    /// Set while a retry is scheduled: only the pass that follows its backoff may upload.
    private var retryDelay: TimeInterval?

    init(configuration: Tracker.Configuration, queue: DiskQueue, statistics: Statistics) {
        self.queue = queue
        self.statistics = statistics
        transport = configuration.transport
        url = configuration.endpoint.appendingPathComponent("v1/events")
        appKey = configuration.appKey
        batchSize = max(1, configuration.batchSize)
        compresses = configuration.compressesUploads
        now = configuration.now
        sleep = configuration.sleep
        random = configuration.random
        (wakeups, wakeupContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the background loop for a pass soon. Cheap; repeated calls coalesce.
    nonisolated func wake() {
        wakeupContinuation.yield()
    }

    /// Ends the background loop.
    nonisolated func stop() {
        wakeupContinuation.finish()
    }

    /// The background loop: a pass per wake-up, and while passes fail, sleeps for the
    /// backoff delay and tries again. Returns when stopped or cancelled.
    func run() async {
        for await _ in wakeups {
            await pass(afterBackoff: false)
            while let retryDelay {
                do { try await sleep(retryDelay) } catch { return }
                await pass(afterBackoff: true)
            }
        }
    }

    /// A pass on behalf of ``Tracker/flush()``: skipped while a retry is scheduled, so
    /// flushing never hammers a server that asked for a pause.
    func flush() async {
        await pass(afterBackoff: false)
        if retryDelay != nil { wake() }
    }

    // MARK: - Passes

    private func pass(afterBackoff: Bool) async {
        if isPassRunning {
            await withCheckedContinuation { passWaiters.append($0) }  // ownership is handed over
        } else {
            isPassRunning = true
        }
        defer {
            if passWaiters.isEmpty { isPassRunning = false } else { passWaiters.removeFirst().resume() }
        }
        guard afterBackoff || retryDelay == nil else { return }

        queue.dropExpired(now: now())
        while true {
            let batch = queue.peek(limit: batchSize)
            guard !batch.isEmpty else {
                failures = 0
                retryDelay = nil
                return
            }
            switch await deliver(batch[...]) {
            case .delivered:
                // Consecutive failures only: an app that always has events queued must not
                // carry the failures of past outages into the next one's backoff.
                failures = 0
            case .retry(let after):
                failures += 1
                retryDelay = after ?? backoff.delay(afterFailures: failures, random: random())
                return
            }
        }
    }

    /// Uploads `batch`, with the drops not yet reported, and settles it per the server's
    /// answer, splitting it on 413.
    private func deliver(_ batch: ArraySlice<QueueRecord>) async -> Outcome {
        let response: UploadResponse
        let drops = statistics.unreportedDrops(maximum: Self.maximumReportedDrops)
        do {
            response = try await transport.send(request(for: batch, drops: drops))
        } catch {
            statistics.recordRetried(batch.count)
            return .retry(after: nil)
        }
        switch response.status {
        case 200..<300:
            statistics.markReported(drops)
            let rejections = (try? JSONDecoder().decode(IngestResponse.self, from: response.body))?.rejected ?? []
            settle(batch, rejected: Set(rejections.map(\.index)))
        case 400:
            settle(batch, droppingAllAs: .badRequest)
        case 413 where batch.count > 1:
            let middle = batch.startIndex + batch.count / 2
            let first = await deliver(batch[..<middle])
            guard case .delivered = first else { return first }
            return await deliver(batch[middle...])
        case 413:
            settle(batch, droppingAllAs: .payloadTooLarge)
        case 429, 503:
            statistics.recordRetried(batch.count)
            return .retry(after: response.retryAfter)
        default:  // 401, other 5xx, anything unexpected: keep the events and back off
            statistics.recordRetried(batch.count)
            return .retry(after: nil)
        }
        return .delivered
    }

    /// Acknowledges `batch` and counts each of its events once: as sent, as rejected by the
    /// server (`rejected` holds indices into the batch), or as dropped for `reason`.
    private func settle(_ batch: ArraySlice<QueueRecord>, rejected: Set<Int> = [], droppingAllAs reason: DropReason? = nil) {
        // Events a cap dropped while the upload was in flight were counted then.
        let alreadyDropped = queue.acknowledge(batch)
        let live = batch.count - alreadyDropped
        if let reason {
            statistics.recordDropped(live, reason)
        } else {
            let rejectedLive = rejected.count { $0 >= alreadyDropped && $0 < batch.count }
            statistics.recordDropped(rejectedLive, .rejectedByServer)
            statistics.recordSent(live - rejectedLive)
        }
    }

    /// The most drops of one reason an upload reports: the server's limit.
    static let maximumReportedDrops = 1_000_000_000

    private func request(for batch: ArraySlice<QueueRecord>, drops: [DropReason: Int]) -> UploadRequest {
        var body = Data("{\"sent_at\":\"\(now().formatted(.wire()))\",\"events\":[".utf8)
        for (offset, record) in batch.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            body.append(record.line)
        }
        body.append(UInt8(ascii: "]"))
        if !drops.isEmpty {
            // Reason raw values are plain ASCII: no escaping needed.
            let members = drops.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\"\($0.key.rawValue)\":\($0.value)" }
            body.append(contentsOf: ",\"dropped\":{\(members.joined(separator: ","))}".utf8)
        }
        body.append(UInt8(ascii: "}"))
        var headers = ["X-App-Key": appKey, "Content-Type": "application/json"]
        if compresses {
            body = Gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        }
        return UploadRequest(url: url, headers: headers, body: body)
    }
}

extension UploadResponse {
    /// `Retry-After` in seconds, the only form the server sends.
    fileprivate var retryAfter: TimeInterval? {
        header("Retry-After")
            .flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
    }
}
