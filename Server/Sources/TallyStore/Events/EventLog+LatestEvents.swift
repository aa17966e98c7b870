import Foundation
public import TallyEvent

extension EventLog {
    /// The most events ``latestEvents(app:limit:filter:)`` returns.
    public static let maximumLatestEvents = 500

    /// The app's most recent events, newest first: by ``Event/timestamp``, then latest stored
    /// first, for a live feed.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - limit: How many events at most, clamped to 1...``maximumLatestEvents``.
    ///   - filter: The segment (see ``SegmentFilter``): the matching events among the
    ///     ``maximumLatestEvents`` latest; empty matches every event.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, ``TallyStoreError/unknownFilterProperty(_:)``,
    ///   a database error, or a `DecodingError` if stored properties are corrupt.
    public func latest(app: AppID, limit: Int = 50, filter: SegmentFilter = SegmentFilter()) async throws -> [Event] {
        let limit = min(max(limit, 1), Self.maximumLatestEvents)
        let latest = try await backend.latestEvents(app: app, limit: filter.isEmpty ? limit : Self.maximumLatestEvents)
        return try await store.matching(latest, app: app, filter: filter).prefix(limit).map { event in
            var event = event
            event.isDebug = app.isDebug
            return event
        }
    }
}
