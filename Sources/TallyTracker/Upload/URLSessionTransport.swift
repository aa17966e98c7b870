#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
    import Locking
#else
    public import Foundation
#endif

/// The default ``Transport``: sends uploads with a `URLSession`.
public struct URLSessionTransport: Transport {
    /// The session requests go through.
    public let session: URLSession

    /// Creates a transport over `session` (the shared session by default).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends `request` with `URLSession`, throwing its error when no HTTP response arrives.
    ///
    /// Cancelling the calling task ends the wait with `CancellationError`.
    public func send(_ request: UploadRequest) async throws -> UploadResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let (body, response) = try await data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields {
            headers[name] = value
        }
        return UploadResponse(status: http.statusCode, headers: headers, body: body)
    }

    #if canImport(FoundationNetworking)
        /// The response to `request`, without ever cancelling its `URLSessionTask`.
        ///
        /// swift-corelibs-foundation traps ("Trying to access a behaviour for a task that in not
        /// in the registry") when a task is cancelled just as it finishes, which
        /// `URLSession.data(for:)` does when its caller is cancelled (3 of 16 `tally serve --demo`
        /// runs stopped by SIGTERM crashed so). Here a cancelled caller stops waiting at once and
        /// the request runs out on its own, bounded by its timeout; its events stay queued, and
        /// the server counts a later resend of any that arrived as duplicates.
        private func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            let pending = PendingResponse()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    guard pending.wait(with: continuation) else { return }
                    session.dataTask(with: request) { data, response, error in
                        if let data, let response {
                            pending.finish(.success((data, response)))
                        } else {
                            pending.finish(.failure(error ?? URLError(.badServerResponse)))
                        }
                    }.resume()
                }
            } onCancel: {
                pending.finish(.failure(CancellationError()))
            }
        }
    #else
        private func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            try await session.data(for: request)
        }
    #endif
}

#if canImport(FoundationNetworking)
    /// A response that the request's completion or the caller's cancellation delivers, whichever
    /// comes first.
    private final class PendingResponse: Sendable {
        typealias Waiter = CheckedContinuation<(Data, URLResponse), any Error>

        private enum State {
            case starting
            case waiting(Waiter)
            case answeredEarly(Result<(Data, URLResponse), any Error>)
            case answered
        }

        private let state = Locked(State.starting)

        /// Hands the waiter over; `false` (and the waiter resumed) if the answer came first.
        func wait(with waiter: Waiter) -> Bool {
            let early: Result<(Data, URLResponse), any Error>? = state.withLock { state in
                guard case .answeredEarly(let result) = state else {
                    state = .waiting(waiter)
                    return nil
                }
                state = .answered
                return result
            }
            guard let early else { return true }
            waiter.resume(with: early)
            return false
        }

        /// Delivers `result` unless an answer was delivered before.
        func finish(_ result: Result<(Data, URLResponse), any Error>) {
            let waiter: Waiter? = state.withLock { state in
                switch state {
                case .starting:
                    state = .answeredEarly(result)
                    return nil
                case .waiting(let waiter):
                    state = .answered
                    return waiter
                case .answeredEarly, .answered:
                    return nil
                }
            }
            waiter?.resume(with: result)
        }
    }
#endif
