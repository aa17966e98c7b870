import Foundation
import Locking
import Logging
import PostgresNIO

/// The store's PostgreSQL database, shared by any number of collector processes, through a
/// PostgresNIO client (a pool of connections).
///
/// Ingest batches share transactions as on SQLite (see ``GroupCommit`` and
/// ``PostgresGroupWriter``); a commit returns once PostgreSQL made it durable
/// (`synchronous_commit` on, the server's default). Metrics read a snapshot of the rollups in
/// one transaction (see ``PostgresRollupRows``), and are computed by the same code as on SQLite.
final class PostgresBackend: GroupCommitBackend {
    let client: PostgresClient
    let logger: Logger
    let groupCommit: GroupCommit<PostgresGroupWriter>
    /// Label texts by id, for metrics: labels never change once interned.
    let labels = Locked(LabelTexts())
    /// The bucket logs read lately.
    let logCache = BucketLogCache()
    private let running: Task<Void, Never>

    /// How long opening waits for a connection.
    static let openTimeout = Duration.seconds(15)

    private struct OpenTimeout: Error {}

    /// Connects to the database `url` names and brings its schema up to date.
    init(url: String) async throws(EventStore.OpenError) {
        let configuration = try PostgresURL.configuration(url)
        let logger = Logger(label: "tally.postgres")
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let running = Task {
            start.finish()
            await client.run()
        }
        // The client warns about leases asked for before it runs.
        for await _ in started {}
        do {
            // The client retries a refused connection forever: give up after a while instead.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.withConnection { _ in } }
                group.addTask {
                    try await Task.sleep(for: Self.openTimeout)
                    throw OpenTimeout()
                }
                defer { group.cancelAll() }
                try await group.next()
            }
            try await Migration.migrate(client, logger: logger)
        } catch {
            running.cancel()
            let reason =
                error is OpenTimeout
                ? "no connection within \(Self.openTimeout) (the reason is in the log above)" : String(reflecting: error)
            throw EventStore.OpenError(path: PostgresURL.redacted(url), reason: reason)
        }
        self.client = client
        self.logger = logger
        self.running = running
        groupCommit = GroupCommit(writer: PostgresGroupWriter(client: client, logger: logger))
    }

    deinit {
        running.cancel()
    }

    /// The rows of `query`, decoded as `types`.
    func rows<each Column: PostgresDecodable & Sendable>(
        _ query: PostgresQuery, as types: (repeat each Column).Type
    ) async throws -> [(repeat each Column)] {
        try await client.withOpenConnection { [logger] connection in
            try await connection.query(query, logger: logger).collect(as: types)
        }
    }

    /// Runs `query`, a statement whose rows, if any, nobody reads.
    func execute(_ query: PostgresQuery) async throws {
        try await client.withOpenConnection { [logger] connection in
            _ = try await connection.query(query, logger: logger)
        }
    }
}

/// A bounded memory of `label` texts by id.
struct LabelTexts {
    /// The most texts kept before the memory is emptied.
    static let maximumEntries = 1 << 16

    private(set) var texts: [Int64: String] = [:]

    /// Adds texts, emptying the memory first when it would pass ``maximumEntries``.
    mutating func add(_ new: [Int64: String]) {
        if texts.count + new.count > Self.maximumEntries { texts = [:] }
        texts.merge(new) { old, _ in old }
    }
}

extension PostgresBackend {
    /// Fetches the rows `needs` declares in one read-only snapshot, then runs `body` over them.
    func readRollups<T: Sendable>(
        app: AppID, needs: @escaping @Sendable (App) throws -> RollupNeeds, body: @escaping @Sendable (RollupReader, App) throws -> T
    ) async throws -> T {
        guard let stored = try await self.app(id: app) else { throw TallyStoreError.unknownApp(app) }
        var declared = try needs(stored)
        // A segment's conditions name its properties (see ``SegmentMatcher``).
        if declared.segmentKeys { declared.labelTexts += stored.segmentProperties.event + stored.segmentProperties.user }
        let needs = declared
        let known = labels.withLock { $0.texts }
        let rows = try await client.withOpenConnection { [logger, logCache] connection in
            try await connection.query("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            do {
                let rows = try await PostgresRollupRows.fetch(
                    needs, app: app, knownLabels: known, logCache: logCache, connection, logger: logger)
                try await connection.query("COMMIT", logger: logger)
                return rows
            } catch {
                try? await connection.rollback(to: nil, logger: logger)
                throw error
            }
        }
        labels.withLock { $0.add(rows.fetchedLabels) }
        // The computation runs on a dispatch queue, as SQLite's do on its readers: a funnel or
        // a metric set takes both cores for a while, and on Swift's cooperative threads it held
        // up every task of the process meanwhile.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body(RollupReader(app: app, rows: rows), stored) }) }
        }
    }
}

extension PostgresBackend {
    /// The channel of commit notices.
    static let noticeChannel = "tally_ingest"

    /// What a commit sends on ``noticeChannel``: who sent it, so its sender skips it.
    struct NoticePayload: Codable {
        var origin: String
        var commit: EventsCommitted
    }

    /// Listens on ``noticeChannel`` on a connection of its own, from the moment it is called,
    /// and yields the commits of other processes; reconnects a second after a failure.
    func remoteCommits() -> AsyncStream<EventsCommitted> {
        let (notices, continuation) = AsyncStream.makeStream(of: EventsCommitted.self, bufferingPolicy: .bufferingNewest(1_024))
        let (client, logger, origin) = (client, logger, groupCommit.writer.origin)
        let listening = Task {
            while !Task.isCancelled {
                do {
                    try await client.withOpenConnection { connection in
                        try await connection.listen(on: Self.noticeChannel) { notifications in
                            let decoder = JSONDecoder()
                            for try await notification in notifications {
                                guard let payload = try? decoder.decode(NoticePayload.self, from: Data(notification.payload.utf8)),
                                    payload.origin != origin
                                else { continue }
                                continuation.yield(payload.commit)
                            }
                        }
                    }
                } catch {
                    guard !Task.isCancelled else { break }
                    logger.warning("commit notices: listening failed, retrying in a second: \(String(reflecting: error))")
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in listening.cancel() }
        return notices
    }
}
