/// What the user sheet shows of the user it names: their timeline as read so far, no such
/// user, or why it could not be read.
enum UserTimelineReport: Hashable, Sendable {
    /// The store's answer, with the pages read so far.
    case read(LoadedTimeline)
    /// The app has no user of this id: never seen, deleted, or another app's.
    case unknownUser
    /// What the store refused or failed with, as people read it.
    case failed(String)
}
