import Foundation

/// One user's data in an app: its deletion, the records of deletions, the raw events of an
/// export (see `EventStore+UserData.swift`).
protocol UserDataBackend: Sendable {
    /// Deletes everything stored about `user` under `app`'s production and debug ids, keeps
    /// the record of the deletion (when, by whom, how many events; never the user's id) and
    /// returns it; or returns `nil`, changing nothing, when neither id has such a user. Every
    /// other row reads as before; no cache of the backend's serves the user afterwards, and
    /// the user's next event makes a new user. On PostgreSQL it is one transaction; SQLite,
    /// whose write lock is every app's, writes in steps that ingest's commits get in between.
    func deleteUser(_ user: String, app: AppID, by actor: String, at time: Date) async throws -> UserDeletion?

    /// Finishes the deletions a process began and did not finish (it was killed), and forgets
    /// the ids of erased events ingest no longer accepts; returns how many it finished.
    func finishInterruptedDeletions(now: Date) async throws -> Int

    /// Folds the logs of at most `limit` buckets that hide a deleted user's events behind a
    /// removal tail (see ``BucketLogTails``), in one transaction, so that the events leave
    /// them; returns how many it folded.
    func foldUserRemovals(limit: Int) async throws -> Int

    /// The records of the deletions in `app`, oldest first.
    func userDeletions(app: AppID) async throws -> [UserDeletion]

    /// `user`'s raw events under `app` at the given milliseconds since 1970, as NDJSON lines
    /// that `tally export` writes, oldest first, and how many.
    func exportUserEvents(app: AppID, user: String, at timestamps: [Int64]) async throws -> (bytes: [UInt8], count: Int)
}
