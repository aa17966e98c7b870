import Foundation

/// Each app's saved segments: named filters. Reached as ``EventStore/segments``.
public struct SegmentStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// The apps' saved segments.
    public var segments: SegmentStore { SegmentStore(store: self) }
}

extension SegmentStore {
    /// The segments saved for `app`, ordered by name (by Unicode code point: `B` before `a`);
    /// none for an unknown app.
    ///
    /// The app's production id and its ``AppID/debug`` id name the same segments.
    public func saved(app: AppID) async throws -> [SavedSegment] {
        try await backend.savedSegments(app: app.production).compactMap { row in
            // The store wrote every filter from a parsed one: a row that does not read is skipped.
            guard let filter = try? SegmentFilter(parsing: row.filter) else { return nil }
            return SavedSegment(name: row.name, filter: filter, createdAt: Date(unixMilliseconds: row.createdAt))
        }
    }

    /// Saves `filter` for `app` as the segment `name`, replacing the filter of a segment of
    /// that name (which keeps its ``SavedSegment/createdAt``); returns the segment as stored.
    ///
    /// The name is trimmed and put in NFC first (see ``SavedSegment/normalized(name:)``).
    /// `filter` may name `app_version`, `platform` and the app's segment properties only.
    ///
    /// - Throws: ``TallyStoreError/invalidSegmentName(_:)``,
    ///   ``TallyStoreError/invalidSegmentFilter(_:)`` (no condition, or its text too long),
    ///   ``TallyStoreError/unknownFilterProperty(_:)``, ``TallyStoreError/unknownApp(_:)``,
    ///   ``TallyStoreError/tooManySavedSegments(_:)`` when the app keeps
    ///   ``SavedSegment/maximumPerApp`` others already, or a database error.
    @discardableResult
    public func save(app: AppID, name: String, filter: SegmentFilter) async throws -> SavedSegment {
        let name = try SavedSegment.normalized(name: name)
        let text = try SavedSegment.storedText(of: filter)
        guard let stored = try await store.apps.app(id: app.production) else { throw TallyStoreError.unknownApp(app.production) }
        if let unknown = filter.conditions.lazy.map(\.property).first(where: { !stored.segmentProperties.filterNames.contains($0) }) {
            throw TallyStoreError.unknownFilterProperty(unknown)
        }
        let createdAt = try await backend.saveSegment(
            app: app.production, name: name, filter: text, createdAt: Date().unixMilliseconds, maximum: SavedSegment.maximumPerApp)
        return SavedSegment(name: name, filter: filter, createdAt: Date(unixMilliseconds: createdAt))
    }

    /// Deletes `app`'s segment `name` (trimmed and in NFC, as saved); returns whether there
    /// was one. A name no segment could have deletes nothing.
    @discardableResult
    public func delete(app: AppID, name: String) async throws -> Bool {
        guard let name = try? SavedSegment.normalized(name: name) else { return false }
        return try await backend.deleteSegment(app: app.production, name: name)
    }
}
