import Foundation
import GRDB
import TallyEvent

/// A deletion of a user's data under way on SQLite (see ``SQLiteBackend/deleteUser(_:app:by:at:)``):
/// a `user_erasure` row, from the write that detaches the user to the one that keeps the
/// deletion's record. It holds the user's id until then, to find the user's raw events, and
/// what the writes in between found, for the last one.
struct PendingErasure: Codable, Sendable {
    /// The user in one build of the app: the production or debug app id, its number there and
    /// the day of its first event.
    struct Part: Codable, Sendable {
        var app: Int64
        var number: UInt32
        var firstDay: Int64
    }

    /// The `user_erasure` row's id.
    var id: Int64 = 0
    /// The production app's id.
    var app: Int64
    var user: String
    var deletedAt: Int64
    var deletedBy: String
    /// The greatest raw event row when the user was detached: later rows are a new user's.
    var lastRow: Int64
    var parts: [Part]
    /// The user's events found so far.
    var events = 0
    /// The segment keys of the user's events found so far, per app id.
    var keys: [Int64: Set<Int64>] = [:]
    /// The names and screens of the user's events found so far, as `label` ids.
    var labels: Set<Int64> = []

    /// The milliseconds after which a deletion no process has written to is taken to be cut
    /// short: its process writes every chunk, a few milliseconds apart.
    static let lease: Int64 = 60_000

    private enum CodingKeys: String, CodingKey {
        case app, user, deletedAt, deletedBy, lastRow, parts, events, keys, labels
    }

    /// Deletes `user`'s `app_user` rows in `app`'s builds, raises their apps' number floors
    /// above them and records the deletion as pending; `nil` when neither build has the user.
    static func detach(_ user: String, app: AppID, by actor: String, at time: Int64, _ db: Database) throws -> PendingErasure? {
        var parts: [Part] = []
        for id in [app, app.debug] {
            guard
                let row = try Row.fetchOne(
                    db, sql: "DELETE FROM app_user WHERE app_id = ? AND user_id = ? RETURNING number, first_seen", arguments: [id.rawValue, user])
            else { continue }
            let (number, firstSeen): (Int64, Int64) = (row[0], row[1])
            guard let stored = UInt32(exactly: number) else {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "app_user.number \(number) is out of range")
            }
            parts.append(Part(app: id.rawValue, number: stored, firstDay: Bucket.day(of: Bucket.containing(milliseconds: firstSeen))))
            try db.execute(
                sql: """
                    INSERT INTO user_number_floor (app_id, next) VALUES (?1, ?2)
                    ON CONFLICT (app_id) DO UPDATE SET next = max(next, excluded.next)
                    """, arguments: [id.rawValue, number + 1])
        }
        guard !parts.isEmpty else { return nil }
        var erasure = PendingErasure(
            app: app.rawValue, user: user, deletedAt: time, deletedBy: actor,
            lastRow: try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM event") ?? 0, parts: parts)
        try db.execute(sql: "INSERT INTO user_erasure (touched, state) VALUES (?, ?)", arguments: [time, try erasure.encoded()])
        erasure.id = db.lastInsertedRowID
        return erasure
    }

    /// Takes over the pending deletions no process wrote to since `cutoff`, marking them
    /// written to at `now`.
    static func claim(untouchedSince cutoff: Int64, now: Int64, _ db: Database) throws -> [PendingErasure] {
        try Row.fetchAll(db, sql: "UPDATE user_erasure SET touched = ? WHERE touched < ? RETURNING id, state", arguments: [now, cutoff])
            .map { try decoded(id: $0[0], $0[1]) }
    }

    /// Adds what `removal` found of `part` to pending deletion `id`.
    static func add(_ removal: UserRemoval, of part: Part, to id: Int64, _ db: Database) throws {
        guard let text = try String.fetchOne(db, sql: "SELECT state FROM user_erasure WHERE id = ?", arguments: [id]) else { return }
        var state = try decoded(id: id, text)
        state.events += removal.events
        state.keys[part.app, default: []].formUnion(removal.keys)
        state.labels.formUnion(removal.labels)
        try db.execute(
            sql: "UPDATE user_erasure SET touched = ?, state = ? WHERE id = ?", arguments: [Date().unixMilliseconds, try state.encoded(), id])
    }

    /// Deletes pending deletion `id` and returns it, or `nil` when it is gone.
    static func take(_ id: Int64, _ db: Database) throws -> PendingErasure? {
        try String.fetchOne(db, sql: "DELETE FROM user_erasure WHERE id = ? RETURNING state", arguments: [id]).map { try decoded(id: id, $0) }
    }

    /// The record of this deletion, of `events` events.
    func deletion(events: Int) -> UserDeletion {
        UserDeletion(app: AppID(rawValue: app), deletedAt: Date(unixMilliseconds: deletedAt), deletedBy: deletedBy, events: events)
    }

    /// The segment keys found, per app id.
    var keysByApp: [AppID: Set<Int64>] { Dictionary(uniqueKeysWithValues: keys.map { (AppID(rawValue: $0.key), $0.value) }) }

    private func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    private static func decoded(id: Int64, _ text: String) throws -> PendingErasure {
        var erasure = try JSONDecoder().decode(PendingErasure.self, from: Data(text.utf8))
        erasure.id = id
        return erasure
    }
}
