import GRDB

extension HealthCounts {
    /// Adds the counts to the `ingest_health` rows, inside the caller's transaction.
    func write(_ db: Database) throws {
        guard !counts.isEmpty else { return }
        let upsert = try RawStatement(
            db,
            sql: """
                INSERT INTO ingest_health (app_id, bucket, outcome, reason, count) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (app_id, bucket, outcome, reason) DO UPDATE SET count = min(count + excluded.count, 9223372036854775807)
                """)
        for (key, count) in counts {
            upsert.bind(key.app.rawValue, at: 1)
            upsert.bind(key.bucket, at: 2)
            upsert.bind(key.outcome.rawValue, at: 3)
            upsert.bind(key.reason, at: 4)
            upsert.bind(Int64(count), at: 5)
            try upsert.execute()
        }
    }
}
