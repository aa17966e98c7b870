/// What a dashboard user may do with one app (see ``MemberStore/setRole(_:of:in:)``).
///
/// Roles are ordered: each may do what the roles below it may. A user with no role in an app
/// does not see it at all.
public enum AppRole: String, CaseIterable, Comparable, Hashable, Sendable, Codable {
    /// Reads everything of the app: its pages, sheets, live updates and downloads.
    case viewer
    /// As a viewer, and changes the app's saved segments.
    case editor
    /// As an editor, and adds, changes and removes the app's members.
    case owner

    /// Whether this role may change the app's saved segments.
    public var canEdit: Bool { self >= .editor }

    /// Whether this role may manage the app's members.
    public var canManageMembers: Bool { self == .owner }

    /// Whether this role may export or delete one user's data.
    public var canManageUserData: Bool { self == .owner }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.level < rhs.level }

    /// The role's rank: the higher, the more it may do.
    private var level: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }
}
