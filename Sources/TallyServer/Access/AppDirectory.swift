import Componentry
import TallyStore

/// Resolves ingest keys and read tokens to apps, remembering the answers.
///
/// Every ingest request presents its key; hashing it and reading the app row each time
/// would cost more than validating a small batch. Only keys that name an app are
/// remembered, and an app's settings are read again after ``forget()``.
final class AppDirectory: Sendable {
    private enum Secret: Hashable {
        case ingestKey(String)
        case readToken(String)
    }

    private let store: EventStore
    private let known = Locked<[Secret: App]>([:])

    init(store: EventStore) {
        self.store = store
    }

    /// The app whose ingest key is `key`.
    func app(ingestKey key: String) async throws -> App? {
        try await app(for: .ingestKey(key)) { try await store.app(ingestKey: key) }
    }

    /// The app whose read token is `token`.
    func app(readToken token: String) async throws -> App? {
        try await app(for: .readToken(token)) { try await store.app(readToken: token) }
    }

    /// Drops everything remembered, so that changed app settings are read again.
    func forget() {
        known.withLock { $0.removeAll() }
    }

    private func app(for secret: Secret, lookup: () async throws -> App?) async throws -> App? {
        if let app = known.withLock({ $0[secret] }) { return app }
        guard let app = try await lookup() else { return nil }
        known.withLock { $0[secret] = app }
        return app
    }
}
