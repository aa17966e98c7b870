/// Tally's storage: apps and their keys, raw events, the rollups kept beside them, and exact
/// metrics computed from those rollups.
///
/// A store is `Sendable` and meant to be shared: one instance per database, used from any
/// number of tasks. Every method is `async` and suspends, rather than blocks, while it waits
/// for the database: SQLite, in one file (``init(path:)``), or PostgreSQL, which several
/// collector processes can share (``init(database:)``). Every write is durable before the
/// call that made it returns, and every metric is computed by the same code on both.
public final class EventStore: Sendable {
    /// The database: the store validates input and computes metrics, the backend reads and
    /// writes rows.
    let backend: any StoreBackend
    /// The streams of ``commits()``.
    let commitFeed = CommitFeed()

    /// Opens the store at `path`, creating the file and schema if needed and migrating an
    /// older schema.
    ///
    /// - Parameter path: A file path; the directory must exist. SQLite also creates
    ///   `path-wal` and `path-shm` beside it.
    /// - Throws: ``OpenError``, naming `path`, if the file cannot be opened or migrated.
    public convenience init(path: String) throws(OpenError) {
        do {
            self.init(backend: try SQLiteBackend(path: path))
        } catch {
            throw OpenError(path: path, reason: "\(error)")
        }
    }

    /// Opens the store `database` names: a PostgreSQL URL,
    /// `postgres://user[:password]@host[:port]/database[?sslmode=disable|require]`, or else the
    /// path of a SQLite file (see ``init(path:)``). Creates or migrates the schema.
    ///
    /// - Throws: ``OpenError`` if the database cannot be reached, opened or migrated; a URL's
    ///   password is not repeated in it.
    public convenience init(database: String) async throws(OpenError) {
        if PostgresURL.matches(database) {
            self.init(backend: try await PostgresBackend(url: database))
        } else {
            try self.init(path: database)
        }
    }

    private init(backend: any StoreBackend) {
        self.backend = backend
    }
}
