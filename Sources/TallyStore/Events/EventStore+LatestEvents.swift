import Foundation
import GRDB

extension EventStore {
    /// The most events ``latestEvents(app:limit:)`` returns.
    public static let maximumLatestEvents = 500

    /// The app's most recent events, newest first: by ``Event/timestamp``, then latest stored
    /// first, for a live feed.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - limit: How many events at most, clamped to 1...``maximumLatestEvents``.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, a database error, or a `DecodingError` if
    ///   stored properties are corrupt.
    public func latestEvents(app: AppID, limit: Int = 50) async throws -> [Event] {
        let limit = min(max(limit, 1), Self.maximumLatestEvents)
        return try await pool.read { db in
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            let decoder = JSONDecoder()
            return try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Event.columns) FROM event WHERE app_id = ? ORDER BY timestamp DESC, rowid DESC LIMIT ?"),
                arguments: [app.rawValue, limit]
            ).map { try Event(row: $0, decoder: decoder) }
        }
    }
}
