import Logging
import Metrics
import PostgresNIO

extension PostgresClient {
    /// Runs `body` on one connection of the pool, as `withConnection` does, but throws as soon
    /// as that connection closes while `body` waits for an answer (see
    /// ``PostgresNIO/PostgresConnection/whileOpen(_:)``).
    func withOpenConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withConnection { connection in
            try await connection.whileOpen { try await body(connection) }
        }
    }

    /// Runs `body` in a transaction on one open connection of the pool (see
    /// ``withOpenConnection(_:)``): `BEGIN`, `body`, `COMMIT`, and `ROLLBACK` if `body` or the
    /// commit throws, unless the connection has closed.
    ///
    /// PostgresNIO's own `withTransaction` sends `ROLLBACK` whatever the connection's state:
    /// after a database crash that `ROLLBACK` waited forever, and the group commit behind it.
    func transaction<Result: Sendable>(
        logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withOpenConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let result = try await body(connection)
                // The server's wait for the disk is the commit's: reported as the fsync's.
                _ = try await Timer(label: StoreTelemetry.fsyncSeconds).measure { try await connection.query("COMMIT", logger: logger) }
                return result
            } catch {
                try? await connection.rollback(to: nil, logger: logger)
                throw error
            }
        }
    }
}
