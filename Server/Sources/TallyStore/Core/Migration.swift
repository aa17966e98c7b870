import GRDB
import Logging
import PostgresNIO

/// One step of the schema's history: its name, which a database records once the step is
/// applied, and its body on each database.
///
/// Both databases apply the same steps, ``all``, in the same order, each in one transaction
/// with the record of its name. A step one database needs no work for (an earlier step there
/// already made what it makes, or that database keeps the data another way) has an empty
/// body there, so a name means the same schema on both.
///
/// Before steps had names they had numbers, different on the two databases: SQLite's "v1" to
/// "v15" in `grdb_migrations`, PostgreSQL's 1 to 12 in `tally_migration`. A database opened
/// with such records upgrades in place: a step whose number it records is recorded under its
/// name without running again (on SQLite by GRDB's merged migrations).
struct Migration: Sendable {
    /// The step's name, recorded in `grdb_migrations` (SQLite) or `schema_migration` (PostgreSQL).
    let name: String
    /// The step's body on SQLite.
    let sqlite: @Sendable (Database) throws -> Void
    /// The step's body on PostgreSQL.
    let postgres: @Sendable (PostgresConnection, Logger) async throws -> Void
    /// The number the step had on SQLite ("vN") before steps were named, if it had one.
    var sqliteNumber: Int? = nil
    /// The number the step had on PostgreSQL before steps were named, if it had one.
    var postgresNumber: Int? = nil
}

extension Migration {
    /// Every step, in the order databases apply them. A new step goes at the end, with both
    /// bodies.
    static let all: [Migration] = [
        Migration(
            name: "apps-and-events", sqlite: Schema.createAppsAndEvents, postgres: sql(PostgresSchema.appsAndEvents),
            sqliteNumber: 1, postgresNumber: 1),
        // PostgreSQL's first step made these tables.
        Migration(name: "dashboard-and-health", sqlite: Schema.createDashboardAndHealth, postgres: nothing, sqliteNumber: 2),
        Migration(name: "user-sets", sqlite: Schema.createUserSets, postgres: nothing, sqliteNumber: 3),
        Migration(
            name: "segments", sqlite: Schema.createSegments, postgres: PostgresSchema.createSegments, sqliteNumber: 4, postgresNumber: 2),
        Migration(
            name: "saved-segments", sqlite: Schema.createSavedSegments, postgres: sql(PostgresSchema.savedSegments), sqliteNumber: 5,
            postgresNumber: 3),
        Migration(
            name: "bucket-log-tails", sqlite: Schema.createBucketLogTails, postgres: sql(PostgresSchema.bucketLogTails), sqliteNumber: 6,
            postgresNumber: 4),
        // SQLite's primary key of `app_user` already orders users by id in code point order.
        Migration(name: "app-user-search", sqlite: { _ in }, postgres: sql(PostgresSchema.appUserIndexes), postgresNumber: 5),
        Migration(
            name: "bucket-log-sessions", sqlite: Schema.addSessionsToBucketLogs, postgres: PostgresSchema.addBucketLogSessions,
            sqliteNumber: 7, postgresNumber: 6),
        Migration(name: "members", sqlite: Schema.createMembers, postgres: sql(PostgresSchema.members), sqliteNumber: 8, postgresNumber: 7),
        Migration(
            name: "raw-retention", sqlite: Schema.addRawRetention, postgres: sql(PostgresSchema.rawRetention), sqliteNumber: 9,
            postgresNumber: 8),
        Migration(
            name: "user-deletions", sqlite: Schema.createUserDeletions, postgres: sql(PostgresSchema.userDeletions), sqliteNumber: 10,
            postgresNumber: 9),
        Migration(name: "alerts", sqlite: Schema.createAlerts, postgres: sql(PostgresSchema.alerts), sqliteNumber: 11, postgresNumber: 10),
        Migration(
            name: "purchases", sqlite: Schema.createPurchases, postgres: sql(PostgresSchema.purchases), sqliteNumber: 12, postgresNumber: 11),
        Migration(
            name: "removal-tails", sqlite: Schema.addRemovalTails, postgres: sql(PostgresSchema.removalTails), sqliteNumber: 13,
            postgresNumber: 12),
        // PostgreSQL keeps an erased event's id in `event_key`, which ingest deduplicates by, and
        // deletes a user's data in one transaction.
        Migration(name: "erased-events", sqlite: Schema.createErasedEvents, postgres: nothing, sqliteNumber: 14),
        Migration(name: "pending-erasures", sqlite: Schema.createPendingErasures, postgres: nothing, sqliteNumber: 15),
    ]

    /// A PostgreSQL body that runs `script`'s statements.
    private static func sql(_ script: String) -> @Sendable (PostgresConnection, Logger) async throws -> Void {
        { connection, logger in try await PostgresSchema.run(script, on: connection, logger: logger) }
    }

    /// The PostgreSQL body of a step that database needs no work for.
    private static let nothing: @Sendable (PostgresConnection, Logger) async throws -> Void = { _, _ in }

    /// The migrator that creates or upgrades a SQLite database: ``all``, each merging the
    /// "vN" it replaces.
    static var sqliteMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in all {
            let merged: Set<String> = migration.sqliteNumber.map { ["v\($0)"] } ?? []
            migrator.registerMigration(migration.name, merging: merged) { db, applied in
                if applied.isEmpty { try migration.sqlite(db) }
            }
        }
        return migrator
    }

    /// Applies the steps the PostgreSQL database of `client` lacks, under an advisory lock so
    /// that collectors starting together apply each once.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withOpenConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(PostgresSchema.migrationLock))", logger: logger)
            do {
                try await migrate(connection, logger: logger)
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(PostgresSchema.migrationLock))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(PostgresSchema.migrationLock))", logger: logger)
        }
    }

    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY)", logger: logger)
        var applied: Set<String> = []
        for try await name in try await connection.query("SELECT name FROM schema_migration", logger: logger).decode(String.self) {
            applied.insert(name)
        }
        // The numbers of a database migrated before steps were named.
        var numbered = false
        for try await exists in try await connection.query("SELECT to_regclass('tally_migration') IS NOT NULL", logger: logger).decode(Bool.self) {
            numbered = exists
        }
        var numbers: Set<Int> = []
        if numbered {
            for try await number in try await connection.query("SELECT version FROM tally_migration", logger: logger).decode(Int.self) {
                numbers.insert(number)
            }
        }
        for migration in all where !applied.contains(migration.name) {
            try await connection.withTransaction(logger: logger) { connection in
                if !numbers.contains(migration.postgresNumber ?? 0) { try await migration.postgres(connection, logger) }
                try await connection.query("INSERT INTO schema_migration (name) VALUES (\(migration.name))", logger: logger)
            }
        }
        if numbered { try await connection.query("DROP TABLE tally_migration", logger: logger) }
    }
}
