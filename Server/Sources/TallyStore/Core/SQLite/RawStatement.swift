import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement driven through SQLite's C API: typed binds, steps and column reads
/// with no per-row allocation.
///
/// The hot loops of the store (inserting events and rollups, reading rollups for metrics)
/// run millions of rows. GRDB's `StatementArguments` and `Row` box every value in an
/// existential and check the database's state on each call, which cost more than SQLite's own
/// work per row. Elsewhere the store uses GRDB as usual; this type only replaces the per-row path,
/// and GRDB still prepares (and finalizes) the statement.
///
/// Use it only inside the database access that prepared it, like a GRDB `Statement`.
/// Bound values persist until rebound, so bind every parameter before each ``execute()``
/// or first ``step()``. Parameter and column indexes are those of SQLite: parameters
/// count from 1, columns from 0.
struct RawStatement: ExportRow {
    private let statement: Statement

    /// Prepares `sql`, a single statement, on `db`.
    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// The statement of `sql` from `db`'s statement cache, prepared on first use, reset: step
    /// through one query of a given `sql` at a time.
    ///
    /// For queries: preparing through GRDB runs its authorizer on every column, which took
    /// a sixth of a day's metrics (about 0.6 ms of 3.8) when each query prepared its own. Not
    /// for writes, whose statements ``GroupCommit`` prepares per transaction.
    static func cached(_ db: Database, sql: String) throws -> RawStatement {
        let statement = RawStatement(statement: try db.cachedStatement(sql: sql))
        // The result repeats the error of a step that failed before; this use starts afresh.
        sqlite3_reset(statement.handle)
        return statement
    }

    private init(statement: Statement) {
        self.statement = statement
    }

    private var handle: OpaquePointer { statement.sqliteStatement }

    /// Binds an integer to parameter `index`.
    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds text, or `NULL` for `nil`, to parameter `index`.
    func bind(_ value: String?, at index: Int32) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { utf8 in
            guard let bytes = utf8.baseAddress else {
                // A null pointer would bind NULL, not the empty string.
                sqlite3_bind_text(handle, index, "", 0, Self.transient)
                return
            }
            bytes.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                _ = sqlite3_bind_text(handle, index, $0, Int32(utf8.count), Self.transient)
            }
        }
    }

    /// Binds the 16 bytes of `uuid` as a blob to parameter `index`.
    func bind(_ uuid: UUID, at index: Int32) {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
        }
    }

    /// Binds `bytes` as a blob to parameter `index`.
    func bind(_ bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { bytes in
            // A null pointer would bind NULL, not an empty blob.
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
        }
    }

    /// Runs the statement to completion, then resets it for the next bindings.
    ///
    /// - Throws: A `DatabaseError` carrying SQLite's code and message, for instance a
    ///   constraint violation.
    func execute() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs a statement that returns one row (an upsert with `RETURNING`), reads that row with
    /// `read`, and resets the statement.
    ///
    /// - Throws: A `DatabaseError` from SQLite, or if the statement returned no row.
    func executeReturningRow<T>(_ read: (Self) -> T) throws -> T {
        defer { sqlite3_reset(handle) }
        guard try step() else { throw DatabaseError(message: "expected a row from `\(statement.sql)`") }
        return read(self)
    }

    /// Runs a query for at most one row, reads that row with `read` if there is one, and
    /// resets the statement.
    ///
    /// - Throws: A `DatabaseError` from SQLite.
    func executeReturningFirstRow<T>(_ read: (Self) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        return try step() ? read(self) : nil
    }

    /// Runs a query, calls `body` with each row, and resets the statement.
    ///
    /// - Throws: A `DatabaseError` from SQLite; what `body` throws.
    func forEachRow(_ body: (Self) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while try step() { try body(self) }
    }

    /// Advances to the next row: `true` if a row is available to read, `false` once done.
    /// A statement stepped to its end is not run again; ``execute()`` and
    /// ``executeReturningRow(_:)`` reset theirs.
    ///
    /// - Throws: A `DatabaseError` carrying SQLite's code and message.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let connection = sqlite3_db_handle(handle)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)),
                sql: statement.sql)
        }
    }

    /// The integer in column `index` of the current row (0 for `NULL`).
    func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Calls `body` with the bytes of the blob in column `index` of the current row (empty for
    /// `NULL`), valid only during the call.
    func withBlob<Result>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let bytes = sqlite3_column_blob(handle, index)
        return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_column_bytes(handle, index))))
    }

    /// Calls `body` with the UTF-8 bytes of the text in column `index` of the current row
    /// (empty for `NULL`), valid only during the call.
    func withText<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let text = sqlite3_column_text(handle, index)
        return try body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : Int(sqlite3_column_bytes(handle, index))))
    }

    /// Whether column `index` of the current row is `NULL`.
    func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The number of rows the last completed `INSERT`, `UPDATE` or `DELETE` of this connection changed.
    var changes: Int32 {
        sqlite3_changes(sqlite3_db_handle(handle))
    }

    /// Tells SQLite to copy bound text and blobs before the bind call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
