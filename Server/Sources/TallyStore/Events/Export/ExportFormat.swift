/// How ``EventLog/write(app:from:to:as:into:)`` writes events.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON object per line (NDJSON) with the keys of the HTTP API plus `app`; a
    /// missing session has no `session_id` key.
    case ndjson
    /// Comma-separated values (RFC 4180) under ``csvHeader``: instants in ISO 8601 UTC,
    /// an empty `session_id` for none, and `properties` as its JSON object.
    case csv

    /// The header line of ``csv``, newline included.
    public static let csvHeader = "app,id,name,timestamp,device_timestamp,user_id,session_id,app_version,platform,properties\n"
}
