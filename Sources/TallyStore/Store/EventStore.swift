/// Tally's storage: apps and their keys, raw events, the rollups kept beside them, and exact
/// metrics computed from those rollups.
///
/// A store is `Sendable` and meant to be shared: one instance per database, used from any
/// number of tasks. Every method is `async` and suspends, rather than blocks, while it waits
/// for the database. The database is SQLite, in one file (``init(path:)``); every write is on
/// disk before the call that made it returns.
public final class EventStore: Sendable {
    /// The longest range, in days, ``metricsRange(app:from:to:timeZone:)`` accepts.
    public static let maximumRangeDays = 366

    /// The database: the store validates input and computes metrics, the backend reads and
    /// writes rows.
    let backend: any StoreBackend

    /// Opens the store at `path`, creating the file and schema if needed and migrating an
    /// older schema.
    ///
    /// - Parameter path: A file path; the directory must exist. SQLite also creates
    ///   `path-wal` and `path-shm` beside it.
    /// - Throws: ``OpenError``, naming `path`, if the file cannot be opened or migrated.
    public init(path: String) throws(OpenError) {
        do {
            backend = try SQLiteBackend(path: path)
        } catch {
            throw OpenError(path: path, reason: "\(error)")
        }
    }
}
