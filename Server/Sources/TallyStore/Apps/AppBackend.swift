import Foundation

/// A backend's apps and the hashes of their secrets.
protocol AppBackend: Sendable {
    /// Stores a new app with the hashes of its secrets and returns its id.
    func insertApp(
        name: String, timeZone: String, acceptedEventAge: TimeInterval, ingestKeyHash: Data, readTokenHash: Data, writeTokenHash: Data,
        createdAt: Int64
    ) async throws -> AppID

    /// The app with this id, or `nil`.
    func app(id: AppID) async throws -> App?

    /// The app whose `secret` hashes to `hash`, or `nil`.
    func app(_ secret: AppSecret, hash: Data) async throws -> App?

    /// All apps, by id.
    func apps() async throws -> [App]

    /// Sets the non-`nil` settings of app `id` and returns it; throws ``TallyStoreError/unknownApp(_:)``,
    /// or ``TallyStoreError/rawEventsPruned(_:keptSince:)`` for changed segment properties of an
    /// app with pruned raw events.
    func updateApp(
        _ id: AppID, timeZone: String?, acceptedEventAge: TimeInterval?, segmentProperties: SegmentProperties?, purchaseEvent: String?,
        rawRetention: RawRetention?
    ) async throws -> App

    /// Replaces the hashes of app `id`'s secrets and returns it; throws ``TallyStoreError/unknownApp(_:)``.
    func replaceKeys(_ id: AppID, ingestKeyHash: Data, readTokenHash: Data, writeTokenHash: Data) async throws -> App
}

/// The three secrets of an app, stored as hashes (see ``AccessKey``).
enum AppSecret {
    /// The ingest key SDKs send.
    case ingestKey
    /// The read token of metrics and export.
    case readToken
    /// The read token's write-capable twin, for annotations.
    case writeToken
}
