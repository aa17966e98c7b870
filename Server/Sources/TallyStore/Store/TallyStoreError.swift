/// The errors the store throws for bad input, as opposed to database failures
/// (which surface as GRDB's `DatabaseError`).
///
/// Every case carries the offending input so a server can turn it into a 4xx response
/// with a precise message; ``description`` is such a message.
public enum TallyStoreError: Error, Hashable, Sendable {
    /// A date that is not a valid `YYYY-MM-DD` calendar day (for example `2026-02-30` or `26-3-1`).
    case invalidDate(String)
    /// A time zone identifier Foundation does not know (for example `Mars/Olympus`).
    case invalidTimeZone(String)
    /// A date range whose end precedes its start, or that spans more than ``EventStore/maximumRangeDays`` days.
    case invalidRange(from: String, to: String)
    /// No app has this id.
    case unknownApp(AppID)
    /// An accepted event age that is not a finite number of seconds from 1 second to
    /// ``App/maximumAcceptedEventAge``.
    case invalidAcceptedEventAge(Double)
    /// The day's boundaries in this time zone are not on a 15-minute UTC grid, so the rollups
    /// cannot answer exactly. Only historical local mean time offsets (before 1972) do this.
    case unsupportedDayBoundary(date: String, timeZone: String)
    /// A dashboard user name that is empty, longer than ``DashboardUser/maximumNameLength``
    /// characters, or holds a control character.
    case invalidUserName(String)
    /// A dashboard user name another account already has.
    case userNameTaken(String)
    /// No dashboard user has this id.
    case unknownUser(DashboardUserID)
    /// A section layout larger than ``EventStore/maximumSectionLayoutBytes``.
    case sectionLayoutTooLarge(bytes: Int)
    /// A data health count below 0 or above ``EventStore/maximumHealthCount``, or a reason code
    /// that is empty or longer than ``EventStore/maximumHealthReasonBytes`` bytes.
    case invalidHealthCount(reason: String, count: Int)
    /// An app with 2^32 users, the most the rollups' user numbers (`UInt32`) can tell apart.
    case tooManyUsers(AppID)
    /// Segment properties with an invalid or repeated name, one named like a built-in
    /// dimension, or more than ``SegmentProperties/maximumEventProperties`` or
    /// ``SegmentProperties/maximumUserProperties``.
    case invalidSegmentProperties(SegmentProperties)
    /// A purchase event name that no event may have (see `Event.isValidName`).
    case invalidPurchaseEvent(String)
    /// A funnel request out of bounds: fewer than 2 or more than ``EventStore/maximumFunnelSteps``
    /// steps, or a window outside 1 second to ``EventStore/maximumFunnelWindow`` seconds; the text says which.
    case invalidFunnel(String)
    /// A paths request out of bounds: an empty start, or a depth outside 1 to
    /// ``EventStore/maximumPathDepth``; the text says which.
    case invalidPaths(String)
    /// A filter naming a dimension that is neither built in nor one of the app's segment properties.
    case unknownFilterProperty(String)
    /// A saved segment's name that, once trimmed, is empty, longer than
    /// ``SavedSegment/maximumNameLength`` characters or ``SavedSegment/maximumNameBytes``
    /// bytes, or holds a control character; the error repeats the name's start.
    case invalidSegmentName(String)
    /// A filter that cannot be saved as a segment: it has no condition, its text passes
    /// ``SavedSegment/maximumFilterBytes``, or holds a NUL character; the text says which.
    case invalidSegmentFilter(String)
    /// An app that keeps ``SavedSegment/maximumPerApp`` saved segments already.
    case tooManySavedSegments(AppID)
    /// A change that would leave the app without an owner: its only owner cannot be removed
    /// or given another role.
    case lastOwner(AppID)
    /// A raw event retention outside 1 to ``RawRetention/maximumDays`` days, or that would not
    /// keep events a day longer than the app's accepted event age (seconds), so that a repeated
    /// event id is always recognized.
    case invalidRawRetention(days: Int, acceptedEventAge: Double)
    /// Segment properties cannot change for an app whose raw events before `keptSince`
    /// (milliseconds since 1970) were deleted: the rebuild reads raw events, and would lose the
    /// segments of the deleted period.
    case rawEventsPruned(AppID, keptSince: Int64)
    /// The app has no user (of its events) with this id, in either build.
    case unknownAppUser(String)
    /// An alert rule that cannot be stored or evaluated; the text says why.
    case invalidAlertRule(String)
    /// An app that keeps ``AlertRule/maximumPerApp`` alert rules already.
    case tooManyAlertRules(AppID)
    /// An annotation that cannot be stored; the text says why.
    case invalidAnnotation(String)
    /// An app that keeps ``Annotation/maximumPerApp`` annotations already.
    case tooManyAnnotations(AppID)
}
