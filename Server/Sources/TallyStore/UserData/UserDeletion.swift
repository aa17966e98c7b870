public import Foundation

/// The record of one deletion of a user's data, kept without the user's id (nor anything
/// derived from it): when, by whom, how many events.
public struct UserDeletion: Sendable, Hashable, Codable {
    /// The app the user's data was deleted from (its production id; its debug builds' data
    /// went too).
    public var app: AppID
    /// When the deletion happened.
    public var deletedAt: Date
    /// Who deleted it: a dashboard user's name, or `cli` for the `tally` command.
    public var deletedBy: String
    /// The events deleted, those of the app's debug builds included.
    public var events: Int

    public init(app: AppID, deletedAt: Date, deletedBy: String, events: Int) {
        self.app = app
        self.deletedAt = deletedAt
        self.deletedBy = deletedBy
        self.events = events
    }
}
