import TallyEvent

/// A backend whose ingest goes through a ``GroupCommit``: its ``StoreBackend`` ingest
/// operations are the group commit's.
protocol GroupCommitBackend: StoreBackend {
    associatedtype Writer: GroupWriter

    /// The group commit every insert and data health count goes through.
    var groupCommit: GroupCommit<Writer> { get }
}

extension GroupCommitBackend {
    func insert(_ events: [Event], app: AppID) async throws -> InsertResult {
        try await groupCommit.insert(events, app: app)
    }

    func record(_ counts: HealthCounts) {
        groupCommit.record(counts)
    }

    func flushHealthCounts(app: AppID) async throws {
        // An empty batch is a barrier: its transaction writes every count recorded before it.
        if groupCommit.holdsHealthCounts { _ = try await groupCommit.insert([], app: app) }
    }
}
