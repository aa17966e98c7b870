public import Foundation
import GRDB

extension EventStore {
    /// The largest section layout ``saveSectionLayout(_:user:app:)`` stores: 64 KiB.
    public static let maximumSectionLayoutBytes = 65_536

    /// The section layout `user` saved for `app`, or `nil` if none was saved.
    ///
    /// The data is opaque to the store: whatever the dashboard encoded (JSON).
    public func sectionLayout(user: DashboardUserID, app: AppID) async throws -> Data? {
        try await pool.read { db in
            try Data.fetchOne(
                db, sql: "SELECT layout FROM section_layout WHERE user_id = ? AND app_id = ?",
                arguments: [user.rawValue, app.rawValue])
        }
    }

    /// Stores `data` as `user`'s section layout for `app`, replacing the previous one.
    ///
    /// - Throws: ``TallyStoreError/sectionLayoutTooLarge(bytes:)`` above
    ///   ``maximumSectionLayoutBytes``, ``TallyStoreError/unknownUser(_:)``,
    ///   ``TallyStoreError/unknownApp(_:)``, or a database error.
    public func saveSectionLayout(_ data: Data, user: DashboardUserID, app: AppID) async throws {
        guard data.count <= Self.maximumSectionLayoutBytes else { throw TallyStoreError.sectionLayoutTooLarge(bytes: data.count) }
        try await pool.write { db in
            try Self.checkUser(db, user)
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            try db.execute(
                sql: "INSERT OR REPLACE INTO section_layout (user_id, app_id, layout) VALUES (?, ?, ?)",
                arguments: [user.rawValue, app.rawValue, data])
        }
    }
}
