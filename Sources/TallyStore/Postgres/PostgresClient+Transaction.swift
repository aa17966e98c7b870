import Logging
import NIOCore
import PostgresNIO

extension PostgresClient {
    /// Runs `body` in a transaction on one connection of the pool: `BEGIN`, `body`, `COMMIT`,
    /// and `ROLLBACK` if `body` or the commit throws, unless the connection has closed.
    ///
    /// PostgresNIO 1.33.2 never answers a query written to a connection that has closed (its
    /// promise is dropped with the write), and its `withTransaction` sends `ROLLBACK` whatever
    /// the connection's state: after a database crash that `ROLLBACK` waited forever, and the
    /// group commit behind it.
    func transaction<Result: Sendable>(
        logger: Logger, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let result = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                try? await connection.rollback(to: nil, logger: logger)
                throw error
            }
        }
    }
}

extension PostgresConnection {
    /// Rolls back to `savepoint`, or the whole transaction when it is `nil`; does nothing on a
    /// closed connection, which would never answer (see ``PostgresClient/transaction(logger:_:)``).
    func rollback(to savepoint: String?, logger: Logger) async throws {
        guard !isClosed else { throw ChannelError.ioOnClosedChannel }
        try await query(PostgresQuery(unsafeSQL: savepoint.map { "ROLLBACK TO SAVEPOINT \($0)" } ?? "ROLLBACK"), logger: logger)
    }
}
