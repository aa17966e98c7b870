public import Foundation

/// A signed-in dashboard session, as stored by ``AccountStore/createSession(user:tokenHash:expiresAt:)``.
public struct DashboardSession: Hashable, Sendable {
    /// The signed-in user.
    public var user: DashboardUser
    /// When the session stops being valid; ``AccountStore/session(tokenHash:now:)`` no longer
    /// returns it from then on. Stored with millisecond precision.
    public var expiresAt: Date
    /// A random secret generated with the session (256 bits, base64url), for the dashboard
    /// to embed in its forms and check on every state-changing request.
    public var csrfToken: String
}
