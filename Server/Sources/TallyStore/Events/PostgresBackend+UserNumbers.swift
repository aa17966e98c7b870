import PostgresNIO

extension PostgresBackend {
    func userNumbers(app: AppID, users: [String]) async throws -> [String: UInt32] {
        guard !users.isEmpty else { return [:] }
        let rows = try await client.withOpenConnection { [logger] connection in
            try await connection.query(
                "SELECT user_id, number FROM app_user WHERE app_id = \(app.rawValue) AND user_id = ANY(\(users))", logger: logger
            ).collect(as: (String, Int64).self)
        }
        return Dictionary(rows.map { ($0.0, UInt32(truncatingIfNeeded: $0.1)) }) { first, _ in first }
    }
}
