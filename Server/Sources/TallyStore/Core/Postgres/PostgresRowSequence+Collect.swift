import PostgresNIO

extension PostgresRowSequence {
    /// Every row, decoded as `types`.
    func collect<each Column: PostgresDecodable & Sendable>(as types: (repeat each Column).Type) async throws -> [(repeat each Column)] {
        var rows: [(repeat each Column)] = []
        for try await row in decode(types) { rows.append(row) }
        return rows
    }
}
