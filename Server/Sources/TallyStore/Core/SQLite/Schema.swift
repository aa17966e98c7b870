import Foundation
import GRDB
import TallyEvent

/// The SQLite schema: the SQLite bodies of the store's migrations (see ``Migration``), which
/// GRDB's `DatabaseMigrator` applies when a store opens.
///
/// Raw events live in `event`. `label` interns event names, app versions and screens as
/// small integers. Everything else except `app` is a rollup that ``EventLog/insert(_:app:)``
/// updates in the same transaction as the events, keyed by UTC 15-minute bucket (see
/// ``Bucket``) so metrics are exact in every time zone. Migration "user-sets" laid them out as today:
///
/// - `app_user`: per app and user id, the user's `number` (dense per app, from 0, what the user
///   sets hold) and the instant of the user's first event.
/// - `name_bucket`: events per name (a `label`) per bucket (event counts).
/// - `screen_bucket`: `screen_view` events per `screen` property (a `label`) per bucket (screens).
/// - `bucket_users`: per bucket, the ``UserSet`` of users active in it (`active`) and of users
///   whose first event ever is in it (`first`).
/// - `day_users`: the same two sets per UTC day, the unions of its buckets' sets, so a window
///   of whole UTC days reads one row a day.
/// - `bucket_activity`: per bucket, the per-user detail of ``BucketActivity``: events per name
///   and user, and each user's last event's version (per-user averages and maxima, versions).
///
/// Migration "user-sets" rebuilds these rollups from the raw events.
///
/// Migration "segments" adds what segments and funnels read (see ``SegmentDelta``), and the app's
/// `segment_properties` (``SegmentProperties`` as JSON), then fills them from the raw events:
///
/// - `segment_key`: per app, its value combinations (`app_version`, `platform`, then each event
///   segment property's value, as `label` ids, 0 for none; ``SegmentKey``), numbered densely.
/// - `bucket_log`: per bucket, every event as the engine keeps it (``BucketLog``): user,
///   millisecond, name, segment key and screen, users ascending; and its `revision`, taken
///   from the one-row `bucket_log_revision` at every write, so a revision is never reused and
///   a ``BucketLogCache`` entry of the same revision holds the same bytes. The index
///   `bucket_log_revisions` reads a range's revisions without the rows' pages. Since "bucket-log-tails", a
///   bucket's newest events wait in `bucket_log_tail` rows, revisions from the same counter,
///   until a commit folds them into its log (``BucketLogTails``). Since "bucket-log-sessions", each event's
///   session is in its log too (``SessionHash``). Since "removal-tails", a tail may name a deleted user
///   whose events the bucket no longer shows (``addRemovalTails(_:)``).
/// - `day_key_users`: per UTC day and segment key, the ``UserSet`` of users with an event of
///   that key, so a filtered window of whole days reads one set per day and key.
/// - `user_trait`: per app, user property (its name's `label` id) and user, the latest value
///   and its rank (``UserTraits``); `trait_users` the ``UserSet`` of users per value.
///
/// Migration "dashboard-and-health" adds the dashboard's tables and the data health counters:
///
/// - `dashboard_user`: dashboard accounts, with the caller's password hash (bcrypt).
/// - `dashboard_session`: signed-in sessions by the SHA-256 of their token, with their CSRF
///   token and expiry; at most ``AccountStore/maximumSessionsPerUser`` per user.
/// - `section_layout`: per user and app, the dashboard's opaque layout JSON (at most
///   ``AccountStore/maximumSectionLayoutBytes``).
/// - `ingest_health`: per app and bucket of arrival, ingest outcomes (see ``IngestOutcome``)
///   counted by reason: at most a few rows per app and 15 minutes with traffic.
///
/// Migration "members" adds `app_member`: each dashboard user's ``AppRole`` per app (see
/// ``createMembers(_:)``). Migration "user-deletions" adds `user_deletion`, the records of deletions of
/// a user's data (see ``createUserDeletions(_:)``), "erased-events" the ids of their erased events
/// (see ``createErasedEvents(_:)``) and "pending-erasures" the deletions under way (see
/// ``createPendingErasures(_:)``).
///
/// Migration "raw-retention" adds each app's raw event retention, `raw_retention_days` and
/// `raw_kept_since` (see ``addRawRetention(_:)``).
///
/// Migration "purchases" adds the app's `purchase_event` and `purchase`, the purchases revenue
/// reads (see ``createPurchases(_:)``).
///
/// Migration "alerts" adds alerts, their webhook outbox and annotations (see ``createAlerts(_:)``).
///
/// Rollup tables are `WITHOUT ROWID`, clustered on `(app_id, time, …)` so a metrics query reads
/// one contiguous range. No foreign keys on the hot tables: ``EventLog/insert(_:app:)``
/// checks the app once per batch instead of once per row.
enum Schema {
    /// Migration "apps-and-events" (SQLite's "v1"): apps, raw events, labels and the first rollups.
    static func createAppsAndEvents(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE app (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    time_zone TEXT NOT NULL,
                    accepted_event_age REAL NOT NULL,
                    ingest_key_hash BLOB NOT NULL UNIQUE,
                    read_token_hash BLOB NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE event (
                    app_id INTEGER NOT NULL,
                    id BLOB NOT NULL,
                    name TEXT NOT NULL,
                    timestamp INTEGER NOT NULL,
                    device_timestamp INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    session_id TEXT,
                    app_version TEXT NOT NULL,
                    platform TEXT NOT NULL,
                    properties TEXT NOT NULL
                );
                CREATE UNIQUE INDEX event_by_id ON event(app_id, id);
                CREATE INDEX event_by_time ON event(app_id, timestamp);
                CREATE TABLE app_user (
                    key INTEGER PRIMARY KEY,
                    app_id INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    first_seen INTEGER NOT NULL,
                    UNIQUE (app_id, user_id)
                );
                CREATE INDEX app_user_by_first_seen ON app_user(app_id, first_seen);
                CREATE TABLE label (
                    id INTEGER PRIMARY KEY,
                    text TEXT NOT NULL UNIQUE
                );
                CREATE TABLE name_bucket (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    name_id INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (app_id, bucket, name_id)
                ) WITHOUT ROWID;
                CREATE TABLE screen_bucket (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    screen TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (app_id, bucket, screen)
                ) WITHOUT ROWID;
                CREATE TABLE user_bucket (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    user_key INTEGER NOT NULL,
                    names BLOB NOT NULL,
                    last_timestamp INTEGER NOT NULL,
                    last_version_id INTEGER NOT NULL,
                    PRIMARY KEY (app_id, bucket, user_key)
                ) WITHOUT ROWID;
                CREATE TABLE user_day (
                    app_id INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    user_key INTEGER NOT NULL,
                    low_buckets INTEGER NOT NULL,
                    high_buckets INTEGER NOT NULL,
                    PRIMARY KEY (app_id, day, user_key)
                ) WITHOUT ROWID;
                CREATE TABLE user_chunk (
                    app_id INTEGER NOT NULL,
                    chunk INTEGER NOT NULL,
                    user_key INTEGER NOT NULL,
                    days INTEGER NOT NULL,
                    PRIMARY KEY (app_id, chunk, user_key)
                ) WITHOUT ROWID;
                """)
    }

    /// Migration "dashboard-and-health" (SQLite's "v2"): the dashboard's accounts, sessions and
    /// layouts, and the data health counters.
    static func createDashboardAndHealth(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE dashboard_user (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE dashboard_session (
                    token_hash BLOB PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES dashboard_user(id) ON DELETE CASCADE,
                    csrf_token TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX dashboard_session_by_user ON dashboard_session(user_id, expires_at);
                CREATE INDEX dashboard_session_by_expiry ON dashboard_session(expires_at);
                CREATE TABLE section_layout (
                    user_id INTEGER NOT NULL REFERENCES dashboard_user(id) ON DELETE CASCADE,
                    app_id INTEGER NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    layout BLOB NOT NULL,
                    PRIMARY KEY (user_id, app_id)
                ) WITHOUT ROWID;
                CREATE TABLE ingest_health (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    outcome INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (app_id, bucket, outcome, reason)
                ) WITHOUT ROWID;
                """)
    }

    /// Migration "user-sets" (SQLite's "v3"): per-app user numbers, user sets and bucket activity
    /// in place of the first per-user rollups, rebuilt from the raw events.
    static func createUserSets(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TABLE user_bucket;
                DROP TABLE user_day;
                DROP TABLE user_chunk;
                DROP TABLE app_user;
                DELETE FROM name_bucket;
                DROP TABLE screen_bucket;
                CREATE TABLE screen_bucket (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    screen_id INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (app_id, bucket, screen_id)
                ) WITHOUT ROWID;
                CREATE TABLE app_user (
                    app_id INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    number INTEGER NOT NULL,
                    first_seen INTEGER NOT NULL,
                    PRIMARY KEY (app_id, user_id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX app_user_by_number ON app_user(app_id, number);
                CREATE TABLE bucket_users (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    active BLOB NOT NULL,
                    first BLOB NOT NULL,
                    PRIMARY KEY (app_id, bucket)
                ) WITHOUT ROWID;
                CREATE TABLE day_users (
                    app_id INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    active BLOB NOT NULL,
                    first BLOB NOT NULL,
                    PRIMARY KEY (app_id, day)
                ) WITHOUT ROWID;
                CREATE TABLE bucket_activity (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    names BLOB NOT NULL,
                    versions BLOB NOT NULL,
                    PRIMARY KEY (app_id, bucket)
                ) WITHOUT ROWID;
                """)
        // The rebuild writes as ingest does today.
        try createUserNumberFloor(db)
        try rebuildRollups(db)
    }

    /// Migration "segments" (SQLite's "v4"): what segments and funnels read, filled from the raw
    /// events.
    static func createSegments(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE app ADD COLUMN segment_properties TEXT NOT NULL DEFAULT '{"event":"","user":""}';
                CREATE TABLE segment_key (
                    app_id INTEGER NOT NULL,
                    id INTEGER NOT NULL,
                    labels BLOB NOT NULL,
                    PRIMARY KEY (app_id, id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX segment_key_by_labels ON segment_key(app_id, labels);
                CREATE TABLE bucket_log (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    revision INTEGER NOT NULL,
                    events BLOB NOT NULL,
                    PRIMARY KEY (app_id, bucket)
                ) WITHOUT ROWID;
                CREATE INDEX bucket_log_revisions ON bucket_log(app_id, bucket, revision);
                CREATE TABLE bucket_log_revision (revision INTEGER NOT NULL);
                INSERT INTO bucket_log_revision VALUES (0);
                CREATE TABLE day_key_users (
                    app_id INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    key INTEGER NOT NULL,
                    users BLOB NOT NULL,
                    PRIMARY KEY (app_id, day, key)
                ) WITHOUT ROWID;
                CREATE TABLE user_trait (
                    app_id INTEGER NOT NULL,
                    property_id INTEGER NOT NULL,
                    user_number INTEGER NOT NULL,
                    value_id INTEGER NOT NULL,
                    rank INTEGER NOT NULL,
                    PRIMARY KEY (app_id, property_id, user_number)
                ) WITHOUT ROWID;
                CREATE TABLE trait_users (
                    app_id INTEGER NOT NULL,
                    property_id INTEGER NOT NULL,
                    value_id INTEGER NOT NULL,
                    users BLOB NOT NULL,
                    PRIMARY KEY (app_id, property_id, value_id)
                ) WITHOUT ROWID;
                """)
        // The rebuild writes as ingest does today, tails included.
        try createBucketLogTails(db)
        for app in try Int64.fetchAll(db, sql: "SELECT id FROM app") {
            for id in [app, -app] { try SegmentDelta.rebuild(db, app: AppID(rawValue: id), properties: SegmentProperties()) }
        }
    }

    /// Fills the rollups from the raw events, in batches of 50,000, as ingest would have.
    private static func rebuildRollups(_ db: Database) throws {
        let unused = Date(timeIntervalSince1970: 0)
        var cache = RollupCache()
        var last: Int64 = 0
        while true {
            let rows = try RawStatement(
                db,
                sql: """
                    SELECT rowid, app_id, name, timestamp, user_id, app_version,
                        CASE WHEN name = 'screen_view' AND json_type(properties, '$.screen') = 'text'
                            THEN json_extract(properties, '$.screen') END
                    FROM event WHERE rowid > ?1 ORDER BY rowid LIMIT 50000
                    """)
            func text(_ column: Int32) -> String {
                rows.withText(at: column) { String(decoding: $0, as: UTF8.self) }
            }
            rows.bind(last, at: 1)
            var deltas: [AppID: RollupDelta] = [:]
            while try rows.step() {
                last = rows.int64(at: 0)
                let event = Event(
                    id: UUID(), name: text(2), timestamp: unused, deviceTimestamp: unused, userID: text(4),
                    sessionID: nil, appVersion: text(5), platform: "",
                    properties: rows.isNull(at: 6) ? [:] : ["screen": .string(text(6))])
                deltas[AppID(rawValue: rows.int64(at: 1)), default: RollupDelta()].add(event, timestamp: rows.int64(at: 3))
            }
            guard !deltas.isEmpty else { return }
            var unused = HealthCounts()
            for (app, delta) in deltas { try delta.write(db, app: app, cache: &cache, segmentProperties: nil, health: &unused) }
            cache.trim()
        }
    }
}
