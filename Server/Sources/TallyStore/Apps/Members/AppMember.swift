/// A dashboard user's role in an app, as ``EventStore/members(app:)`` lists it.
public struct AppMember: Hashable, Sendable {
    /// The member.
    public var user: DashboardUser
    /// What the member may do with the app.
    public var role: AppRole

    /// Creates a member value; only the store's say names a stored membership.
    public init(user: DashboardUser, role: AppRole) {
        self.user = user
        self.role = role
    }
}
