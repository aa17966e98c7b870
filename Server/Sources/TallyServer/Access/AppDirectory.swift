import Locking
import TallyStore

/// Resolves ingest keys, read tokens and write tokens to apps, remembering each answer for a second.
///
/// Every ingest request presents its key; hashing it and reading the app row each time
/// would cost more than validating a small batch, so answers are remembered. They are read
/// again once older than ``freshness``, so a change to an app — its time zone, accepted
/// age or keys, made by this process or another one such as `tally app` — takes effect
/// within that time, without a restart. Only keys that name an app are remembered, and
/// entries past their freshness are dropped once more than ``capacity`` are held, so the
/// table stays bounded whatever keys clients present.
final class AppDirectory: Sendable {
    /// How long a remembered answer is used before the app is read again.
    static let freshness = Duration.seconds(1)
    /// How many answers are held before stale ones are dropped.
    static let capacity = 1_024

    private enum Secret: Hashable {
        case ingestKey(String)
        case readToken(String)
        case writeToken(String)
    }

    private struct Entry {
        let app: App
        let readAt: ContinuousClock.Instant
    }

    private let store: EventStore
    private let known = Locked<[Secret: Entry]>([:])

    init(store: EventStore) {
        self.store = store
    }

    /// The app whose ingest key is `key`.
    func app(ingestKey key: String) async throws -> App? {
        try await app(for: .ingestKey(key)) { try await store.apps.app(ingestKey: key) }
    }

    /// The app whose read token is `token`.
    func app(readToken token: String) async throws -> App? {
        try await app(for: .readToken(token)) { try await store.apps.app(readToken: token) }
    }

    /// The app whose write token is `token`.
    func app(writeToken token: String) async throws -> App? {
        try await app(for: .writeToken(token)) { try await store.apps.app(writeToken: token) }
    }

    /// The app remembered, and still fresh, for `token` as a write token or, unless `writing`,
    /// as a read token; `nil` without reading the store. A read token is presented far more
    /// often than a write token, and would otherwise cost a write token's look-up in the store
    /// each time, since only keys that name an app are remembered.
    func rememberedApp(token: String, writing: Bool) -> App? {
        let now = ContinuousClock.now
        return remembered(.writeToken(token), at: now) ?? (writing ? nil : remembered(.readToken(token), at: now))
    }

    /// How many answers are held; for tests of the bound.
    var count: Int { known.withLock(\.count) }

    /// The app remembered for `secret`, if read less than ``freshness`` before `now`.
    private func remembered(_ secret: Secret, at now: ContinuousClock.Instant) -> App? {
        guard let entry = known.withLock({ $0[secret] }), now - entry.readAt < Self.freshness else { return nil }
        return entry.app
    }

    private func app(for secret: Secret, lookup: () async throws -> App?) async throws -> App? {
        let now = ContinuousClock.now
        if let app = remembered(secret, at: now) { return app }
        let app = try await lookup()
        known.withLock { known in
            known[secret] = app.map { Entry(app: $0, readAt: now) }
            if known.count > Self.capacity {
                known = known.filter { now - $0.value.readAt < Self.freshness }
            }
        }
        return app
    }
}
