import Foundation
import Locking
import TallyServer

/// A transport that answers 200 without networking: at once, or, for a host of `held`, once
/// ``release()`` is called. It records each POST's delivery id and the most POSTs in flight
/// at once, per host and in all.
final class FakeWebhookTransport: WebhookTransport {
    struct Record {
        var delivered: [String] = []
        var inFlight: [String: Int] = [:]
        var mostInFlight: [String: Int] = [:]
        var mostInFlightInAll = 0
        var released = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let held: Set<String>
    let record = Locked(Record())

    init(held: Set<String> = []) {
        self.held = held
    }

    func post(to url: URL, body: [UInt8], headers: [(name: String, value: String)]) async throws -> Int {
        let host = url.host ?? ""
        record.withLock { record in
            record.inFlight[host, default: 0] += 1
            record.mostInFlight[host] = max(record.mostInFlight[host] ?? 0, record.inFlight[host] ?? 0)
            record.mostInFlightInAll = max(record.mostInFlightInAll, record.inFlight.values.reduce(0, +))
        }
        if held.contains(host) {
            await withCheckedContinuation { continuation in
                let now = record.withLock { record in
                    if !record.released { record.waiting.append(continuation) }
                    return record.released
                }
                if now { continuation.resume() }
            }
        }
        record.withLock { record in
            record.inFlight[host, default: 0] -= 1
            record.delivered.append(headers.first { $0.name == "X-Tally-Delivery" }?.value ?? "")
        }
        return 200
    }

    /// Lets the held POSTs, and those to come, answer.
    func release() {
        let waiting = record.withLock { record in
            record.released = true
            defer { record.waiting = [] }
            return record.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
