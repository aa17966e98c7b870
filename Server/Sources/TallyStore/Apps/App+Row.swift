import Foundation
import GRDB

extension App {
    /// The columns ``init(row:)`` reads, in order.
    static let columns =
        "id, name, time_zone, accepted_event_age, created_at, segment_properties, purchase_event, raw_retention_days, raw_kept_since"

    /// Decodes a row selected with ``columns``.
    init(row: Row) {
        self.init(
            id: AppID(rawValue: row[0]), name: row[1], timeZone: row[2],
            acceptedEventAge: row[3], createdAt: Date(unixMilliseconds: row[4]),
            segmentProperties: SegmentProperties(json: row[5]), purchaseEvent: row[6], rawRetentionDays: row[7],
            rawEventsKeptSince: (row[8] as Int64?).map(Date.init(unixMilliseconds:)))
    }

    /// The app with this id, or `nil`; for an app's ``AppID/debug`` id, the app with that id.
    static func fetch(_ db: Database, id: AppID) throws -> App? {
        var app = try fetch(db, whereColumn: "id", equals: id.production.rawValue)
        app?.id = id
        return app
    }

    /// The app whose `column` equals `value`, or `nil`.
    static func fetch(_ db: Database, whereColumn column: String, equals value: some DatabaseValueConvertible) throws -> App? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM app WHERE \(column) = ?", arguments: [value]).map(App.init(row:))
    }
}
