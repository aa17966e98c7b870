import Locking
import Logging
import NIOCore
import PostgresNIO

extension PostgresConnection {
    /// How often ``whileOpen(_:)`` looks whether its connection has closed.
    static let closeCheckInterval = Duration.milliseconds(100)

    /// Runs `body`, whose queries go to this connection, and returns its result, or throws
    /// `ChannelError.ioOnClosedChannel` once the connection has closed while `body` still runs.
    ///
    /// PostgresNIO 1.33.2 never answers a query written to a connection that is closing: the
    /// query's promise is dropped with the write, so its caller waits forever. With PostgreSQL
    /// stopped with `-m immediate` under load, that stopped group commit for good after 3 to 8
    /// crashes. Here `body` runs in a task of its own, left waiting in that case (it holds only
    /// what `body` captured), while a watcher looks at the connection every
    /// ``closeCheckInterval``: a callback on its `closeFuture` instead would stay registered
    /// for the connection's whole life, one per call. Cancelling the caller cancels `body`.
    func whileOpen<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let call = WhileOpenCall<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Stored before either task exists, so neither can finish before it.
                call.wait(continuation)
                let watcher = Task { [self] in
                    while (try? await Task.sleep(for: Self.closeCheckInterval)) != nil {
                        if isClosed {
                            call.finish(.failure(ChannelError.ioOnClosedChannel))
                            return
                        }
                    }
                }
                let work = Task {
                    let result: Swift.Result<Result, any Error>
                    do { result = .success(try await body()) } catch { result = .failure(error) }
                    watcher.cancel()
                    call.finish(result)
                }
                call.run(work)
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// Rolls back to `savepoint`, or the whole transaction when it is `nil`; throws at once on a
    /// closed connection, which would never answer (see ``whileOpen(_:)``).
    func rollback(to savepoint: String?, logger: Logger) async throws {
        guard !isClosed else { throw ChannelError.ioOnClosedChannel }
        try await query(PostgresQuery(unsafeSQL: savepoint.map { "ROLLBACK TO SAVEPOINT \($0)" } ?? "ROLLBACK"), logger: logger)
    }
}

/// The caller of one ``PostgresNIO/PostgresConnection/whileOpen(_:)``, resumed once by whichever
/// comes first: the result of its body, or the connection's closing.
private final class WhileOpenCall<Result: Sendable>: Sendable {
    private struct State {
        /// The caller, until it is resumed.
        var continuation: CheckedContinuation<Result, any Error>?
        /// The task running the body, while the caller waits.
        var work: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Locked(State())

    /// Stores the caller to resume.
    func wait(_ continuation: CheckedContinuation<Result, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Stores the task running the body, to cancel with the caller; cancels it at once if the
    /// caller already is.
    func run(_ work: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            if !state.cancelled, state.continuation != nil { state.work = work }
            return state.cancelled
        }
        if cancelled { work.cancel() }
    }

    /// Resumes the caller with `result`, unless it was resumed already.
    func finish(_ result: Swift.Result<Result, any Error>) {
        let continuation = state.withLock { state in
            state.work = nil
            return state.continuation.take()
        }
        continuation?.resume(with: result)
    }

    /// Cancels the body, now or as soon as it runs.
    func cancel() {
        let work = state.withLock { state in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }
}
