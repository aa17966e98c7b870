import Foundation
import Locking

@testable import TallyTracker

/// A scripted ``Transport``: answers requests with `script` in order, then with `otherwise`,
/// and records every exchange.
final class FakeTransport: Transport {
    enum Reply: Sendable {
        /// 200 naming the events at `rejected` (indices into the batch) as invalid.
        case ok(rejected: [Int] = [])
        case status(Int, retryAfter: String? = nil)
        case networkError
    }

    struct Exchange: Sendable {
        let request: UploadRequest
        let reply: Reply
    }

    private let state: Locked<(script: [Reply], exchanges: [Exchange])>
    private let otherwise: Reply

    init(_ script: [Reply] = [], otherwise: Reply = .ok()) {
        state = Locked((script, []))
        self.otherwise = otherwise
    }

    var exchanges: [Exchange] { state.withLock { $0.exchanges } }
    var requests: [UploadRequest] { exchanges.map(\.request) }

    /// Ids of the events the server took, in order of delivery, duplicates kept.
    var deliveredIDs: [String] {
        exchanges.flatMap { exchange -> [String] in
            guard case .ok(let rejected) = exchange.reply else { return [] }
            return eventObjects(in: exchange.request).enumerated()
                .filter { !rejected.contains($0.offset) }
                .map { $0.element["id"] as! String }
        }
    }

    func send(_ request: UploadRequest) async throws -> UploadResponse {
        let reply = state.withLock { state in
            let reply = state.script.isEmpty ? otherwise : state.script.removeFirst()
            state.exchanges.append(Exchange(request: request, reply: reply))
            return reply
        }
        switch reply {
        case .ok(let rejected):
            let count = eventObjects(in: request).count
            let body: [String: Any] = [
                "accepted": count - rejected.count, "duplicates": 0,
                "rejected": rejected.map { ["index": $0, "reason": "invalid"] },
            ]
            return UploadResponse(status: 200, body: try JSONSerialization.data(withJSONObject: body))
        case .status(let status, let retryAfter):
            return UploadResponse(status: status, headers: retryAfter.map { ["retry-after": $0] } ?? [:])
        case .networkError:
            throw URLError(.notConnectedToInternet)
        }
    }
}

/// The decoded JSON body of an upload, gunzipped first if needed.
func bodyObject(of request: UploadRequest) -> [String: Any] {
    let body = request.headers["Content-Encoding"] == "gzip" ? try! gunzip(request.body) : request.body
    return try! JSONSerialization.jsonObject(with: body) as! [String: Any]
}

/// The events of an upload, as JSON objects.
func eventObjects(in request: UploadRequest) -> [[String: Any]] {
    bodyObject(of: request)["events"] as! [[String: Any]]
}
