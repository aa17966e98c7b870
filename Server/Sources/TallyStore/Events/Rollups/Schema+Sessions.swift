import GRDB

extension Schema {
    /// Migration "bucket-log-sessions": the bucket logs gain each event's session (see ``SessionHash``), which
    /// paths read: every app's logs and what is rebuilt with them are rebuilt from the raw
    /// events under the app's segment properties.
    static func addSessionsToBucketLogs(_ db: Database) throws {
        try addRemovedUser(db)
        for row in try Row.fetchAll(db, sql: "SELECT id, segment_properties FROM app") {
            let (app, properties): (Int64, String) = (row[0], row[1])
            for id in [app, -app] {
                try SegmentDelta.rebuild(db, app: AppID(rawValue: id), properties: SegmentProperties(json: properties))
            }
        }
    }
}
