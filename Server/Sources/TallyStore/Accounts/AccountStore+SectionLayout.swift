public import Foundation

extension AccountStore {
    /// The largest section layout ``saveSectionLayout(_:user:app:)`` stores: 64 KiB.
    public static let maximumSectionLayoutBytes = 65_536

    /// The section layout `user` saved for `app`, or `nil` if none was saved.
    ///
    /// The data is opaque to the store: whatever the dashboard encoded (JSON).
    public func sectionLayout(user: DashboardUserID, app: AppID) async throws -> Data? {
        try await backend.sectionLayout(user: user, app: app)
    }

    /// Stores `data` as `user`'s section layout for `app`, replacing the previous one.
    ///
    /// - Throws: ``TallyStoreError/sectionLayoutTooLarge(bytes:)`` above
    ///   ``maximumSectionLayoutBytes``, ``TallyStoreError/unknownUser(_:)``,
    ///   ``TallyStoreError/unknownApp(_:)``, or a database error.
    public func saveSectionLayout(_ data: Data, user: DashboardUserID, app: AppID) async throws {
        guard data.count <= Self.maximumSectionLayoutBytes else { throw TallyStoreError.sectionLayoutTooLarge(bytes: data.count) }
        try await backend.saveSectionLayout(data, user: user, app: app)
    }
}
