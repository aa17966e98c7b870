import Foundation

/// The database behind ``EventStore``: SQLite (``SQLiteBackend``) or PostgreSQL
/// (``PostgresBackend``), one protocol per concern. A new concern adds a protocol here, and
/// each backend conforms in a file of its own.
///
/// ``EventStore`` validates input, generates secrets and computes metrics (through
/// ``RollupReader``, over the rows a backend reads), so each backend holds only what differs
/// between databases: its SQL, its transactions and its group commit. Arguments reach a
/// backend validated; a backend throws ``TallyStoreError`` only for what needs the database
/// to know (an unknown app or user, a taken name).
typealias StoreBackend = AppBackend & EventBackend & MetricsBackend & AccountBackend & SavedSegmentBackend & MemberBackend
    & PruneBackend
    & UserDataBackend
    & AlertBackend & AnnotationBackend
