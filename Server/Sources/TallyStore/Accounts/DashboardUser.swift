/// A dashboard account, as created by ``AccountStore/create(name:passwordHash:)``.
///
/// The store keeps the password hash beside it but never hands it out with the user: only
/// ``AccountStore/account(named:)``, the sign-in lookup, returns it.
public struct DashboardUser: Hashable, Sendable, Codable {
    /// The account's stable identifier.
    public var id: DashboardUserID
    /// The unique sign-in name.
    public var name: String

    /// The most characters a name may have.
    public static let maximumNameLength = 64

    /// Creates a user value; only the store assigns ids that name a stored account.
    public init(id: DashboardUserID, name: String) {
        self.id = id
        self.name = name
    }

    /// Throws unless `name` has 1 to ``maximumNameLength`` characters and no control
    /// characters (a name is shown in pages and logs).
    static func validate(name: String) throws(TallyStoreError) {
        guard (1...maximumNameLength).contains(name.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidUserName(name) }
    }
}

/// The identifier of a ``DashboardUser``: the row id the store assigned.
public struct DashboardUserID: RawRepresentable, Hashable, Sendable, Codable {
    /// The underlying integer.
    public var rawValue: Int64

    /// Wraps an integer; it names a user only if the store has one with that id.
    public init(rawValue: Int64) { self.rawValue = rawValue }
}
