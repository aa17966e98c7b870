import TallyStore

/// What the user search answers for a prefix: the app's users whose id starts with it, or
/// why it could not be read.
enum UserSearchReport: Hashable, Sendable {
    /// The users found, in code point order of their ids: at most ``resultLimit``.
    case found([AppUser])
    /// What the store refused or failed with, as people read it.
    case failed(String)

    /// The most users one search lists.
    static let resultLimit = 20
}
