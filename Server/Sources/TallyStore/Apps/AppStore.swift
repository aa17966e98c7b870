public import Foundation
import TallyEvent

/// Apps and their keys: creating, finding by id or by the hash of a key, settings, rotation. Reached as ``AppStore/all``.
public struct AppStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// The apps and their keys.
    public var apps: AppStore { AppStore(store: self) }
}

extension AppStore {
    /// Registers an app and returns it with a fresh ingest key, read token and write token.
    ///
    /// The three secrets are returned only here: the store keeps their SHA-256 hashes.
    ///
    /// - Parameters:
    ///   - name: A display name; need not be unique.
    ///   - timeZone: The IANA identifier whose days metrics use by default.
    ///   - acceptedEventAge: How old an event may be and still be accepted by the ingest server.
    /// - Throws: ``TallyStoreError/invalidTimeZone(_:)`` if Foundation does not know `timeZone`,
    ///   ``TallyStoreError/invalidAcceptedEventAge(_:)`` for an age out of range.
    public func create(
        name: String, timeZone: String = "UTC", acceptedEventAge: TimeInterval = App.defaultAcceptedEventAge
    ) async throws -> NewApp {
        _ = try LocalCalendar(identifier: timeZone)
        try App.validate(acceptedEventAge: acceptedEventAge)
        let ingestKey = AccessKey.generate(prefix: "ik_")
        let readToken = AccessKey.generate(prefix: "rt_")
        let writeToken = AccessKey.generate(prefix: "wt_")
        let createdAt = Date().unixMilliseconds
        let id = try await backend.insertApp(
            name: name, timeZone: timeZone, acceptedEventAge: acceptedEventAge,
            ingestKeyHash: AccessKey.hash(ingestKey), readTokenHash: AccessKey.hash(readToken), writeTokenHash: AccessKey.hash(writeToken),
            createdAt: createdAt)
        let app = App(id: id, name: name, timeZone: timeZone, acceptedEventAge: acceptedEventAge, createdAt: Date(unixMilliseconds: createdAt))
        return NewApp(app: app, ingestKey: ingestKey, readToken: readToken, writeToken: writeToken)
    }

    /// The app with this id, or `nil` if there is none (an ``AppID/debug`` id names none).
    public func app(id: AppID) async throws -> App? {
        id.isDebug ? nil : try await backend.app(id: id)
    }

    /// The app whose ingest key is `ingestKey`, or `nil` if no app has it.
    ///
    /// Hashes the presented key and looks the hash up; use it to authenticate ingest requests.
    public func app(ingestKey: String) async throws -> App? {
        try await backend.app(.ingestKey, hash: AccessKey.hash(ingestKey))
    }

    /// The app whose write token is `writeToken` (``NewApp/writeToken``), or `nil` if no app has it.
    public func app(writeToken: String) async throws -> App? {
        try await backend.app(.writeToken, hash: AccessKey.hash(writeToken))
    }

    /// The app whose read token is `readToken`, or `nil` if no app has it.
    ///
    /// Hashes the presented token and looks the hash up; use it to authenticate metrics and export requests.
    public func app(readToken: String) async throws -> App? {
        try await backend.app(.readToken, hash: AccessKey.hash(readToken))
    }

    /// All apps, ordered by id (creation order).
    public func all() async throws -> [App] {
        try await backend.apps()
    }

    /// Changes an app's settings and returns the updated app; `nil` arguments keep the current value.
    ///
    /// Changing the time zone affects only which days later metrics requests use by default:
    /// rollups are kept in UTC buckets, so nothing is recomputed. Changing the segment
    /// properties rebuilds, from the stored raw events, what segments and funnels read, in
    /// the same transaction: ingest waits meanwhile (about N seconds per million events).
    /// A raw event retention (``RawRetention``) takes effect at the next pruning
    /// (``pruneRawEvents(now:)``); ``RawRetention/forever`` stops pruning.
    ///
    /// Changing the purchase event changes which events later commits count as purchases:
    /// purchases already counted stay, and earlier events of the new name are not read again
    /// (their raw events may be gone).
    ///
    /// - Throws: ``TallyStoreError/invalidTimeZone(_:)``, ``TallyStoreError/invalidAcceptedEventAge(_:)``,
    ///   ``TallyStoreError/invalidSegmentProperties(_:)``, ``TallyStoreError/invalidPurchaseEvent(_:)``,
    ///   ``TallyStoreError/invalidRawRetention(days:acceptedEventAge:)``
    ///   for a retention shorter than the accepted event age and a day (either changed),
    ///   ``TallyStoreError/rawEventsPruned(_:keptSince:)`` for new segment properties of an app
    ///   whose raw events were pruned, or ``TallyStoreError/unknownApp(_:)``.
    public func update(
        _ id: AppID, timeZone: String? = nil, acceptedEventAge: TimeInterval? = nil, segmentProperties: SegmentProperties? = nil,
        purchaseEvent: String? = nil, rawRetention: RawRetention? = nil
    ) async throws -> App {
        if let timeZone { _ = try LocalCalendar(identifier: timeZone) }
        if let acceptedEventAge { try App.validate(acceptedEventAge: acceptedEventAge) }
        try segmentProperties?.validate()
        if let purchaseEvent, !Event.isValidName(purchaseEvent) { throw TallyStoreError.invalidPurchaseEvent(purchaseEvent) }
        if acceptedEventAge != nil || rawRetention != nil {
            guard let stored = try await backend.app(id: id.production) else { throw TallyStoreError.unknownApp(id) }
            let retention = rawRetention ?? stored.rawRetentionDays.map(RawRetention.days) ?? .forever
            try App.validate(rawRetention: retention, acceptedEventAge: acceptedEventAge ?? stored.acceptedEventAge)
        }
        return try await backend.updateApp(
            id, timeZone: timeZone, acceptedEventAge: acceptedEventAge, segmentProperties: segmentProperties, purchaseEvent: purchaseEvent,
            rawRetention: rawRetention)
    }

    /// Replaces an app's ingest key, read token and write token with fresh ones and returns them.
    ///
    /// The old secrets stop working at once for new lookups (a server that remembers
    /// lookups sees the change within its own delay); apps that ship the old ingest key
    /// need a release with the new one. Events and settings are kept.
    ///
    /// - Throws: ``TallyStoreError/unknownApp(_:)``.
    public func rotateKeys(_ id: AppID) async throws -> NewApp {
        let ingestKey = AccessKey.generate(prefix: "ik_")
        let readToken = AccessKey.generate(prefix: "rt_")
        let writeToken = AccessKey.generate(prefix: "wt_")
        let app = try await backend.replaceKeys(
            id, ingestKeyHash: AccessKey.hash(ingestKey), readTokenHash: AccessKey.hash(readToken), writeTokenHash: AccessKey.hash(writeToken))
        return NewApp(app: app, ingestKey: ingestKey, readToken: readToken, writeToken: writeToken)
    }
}
