import Foundation
import TallyEvent

/// The errors the store throws for what it refuses, as opposed to database failures (which
/// surface as GRDB's `DatabaseError` or PostgresNIO's `PSQLError`).
///
/// Each error has a ``code``, which names the rule that was broken, a ``kind`` (input that
/// is invalid, something that is not there, a conflict with what is stored, a limit reached)
/// that a server maps to a status once, and a ``description`` that names the offending value,
/// a sentence fit for an API's error response.
///
/// ```swift
/// do {
///     try await store.deleteUserData(app: app, user: id, by: "support")
/// } catch TallyStoreError.Code.unknownAppUser {
///     // nothing to delete
/// }
/// ```
///
/// Codes are values of a struct, not cases of an enum, so a new one breaks no caller.
public struct TallyStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which rule the input broke.
    public let code: Code
    /// A sentence naming the offending value and the rule, suitable for an API error response.
    public let description: String

    /// What kind of refusal an error is, which decides its HTTP status (the collector's
    /// `APIError(storeError:)` maps it).
    public enum Kind: Hashable, Sendable {
        /// The input is not valid, whatever is stored.
        case invalidInput
        /// It names something the store does not have.
        case notFound
        /// It conflicts with what is stored.
        case conflict
        /// It would pass a limit on what the store keeps.
        case limit
    }

    /// The kind of the error's ``code``.
    public var kind: Kind { code.kind }

    private init(_ code: Code, _ description: String) {
        (self.code, self.description) = (code, description)
    }
}

extension TallyStoreError {
    /// The rule an error broke: a name, and the ``Kind`` of refusal.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidDate
            case invalidTimeZone
            case invalidRange
            case unknownApp
            case invalidAcceptedEventAge
            case unsupportedDayBoundary
            case invalidUserName
            case userNameTaken
            case unknownUser
            case sectionLayoutTooLarge
            case invalidHealthCount
            case tooManyUsers
            case invalidSegmentProperties
            case invalidPurchaseEvent
            case invalidFunnel
            case invalidPaths
            case unknownFilterProperty
            case invalidSegmentName
            case invalidSegmentFilter
            case tooManySavedSegments
            case lastOwner
            case invalidRawRetention
            case rawEventsPruned
            case unknownAppUser
            case invalidAlertRule
            case tooManyAlertRules
            case invalidAnnotation
            case tooManyAnnotations
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Whether `error` is a ``TallyStoreError`` of `code`: `catch TallyStoreError.Code.unknownApp`.
        public static func ~= (code: Self, error: any Error) -> Bool {
            (error as? TallyStoreError)?.code == code
        }

        /// The code's name, as in Swift (`invalidDate`).
        public var description: String { base.rawValue }

        /// The kind of refusal.
        public var kind: Kind {
            switch base {
            case .invalidDate, .invalidTimeZone, .invalidRange, .invalidAcceptedEventAge, .unsupportedDayBoundary, .invalidUserName,
                .sectionLayoutTooLarge, .invalidHealthCount, .invalidSegmentProperties, .invalidPurchaseEvent, .invalidFunnel, .invalidPaths,
                .unknownFilterProperty, .invalidSegmentName, .invalidSegmentFilter, .invalidRawRetention, .invalidAlertRule, .invalidAnnotation:
                .invalidInput
            case .unknownApp, .unknownUser, .unknownAppUser: .notFound
            case .userNameTaken, .lastOwner, .rawEventsPruned: .conflict
            case .tooManyUsers, .tooManySavedSegments, .tooManyAlertRules, .tooManyAnnotations: .limit
            }
        }

        /// A date that is not a valid `YYYY-MM-DD` calendar day (for example `2026-02-30` or `26-3-1`).
        public static let invalidDate = Code(.invalidDate)
        /// A time zone identifier Foundation does not know (for example `Mars/Olympus`).
        public static let invalidTimeZone = Code(.invalidTimeZone)
        /// A date range whose end precedes its start, or that spans more than ``ReadScope/maximumDays`` days.
        public static let invalidRange = Code(.invalidRange)
        /// No app has this id.
        public static let unknownApp = Code(.unknownApp)
        /// An accepted event age that is not a finite number of seconds from 1 second to
        /// ``App/maximumAcceptedEventAge``.
        public static let invalidAcceptedEventAge = Code(.invalidAcceptedEventAge)
        /// The day's boundaries in this time zone are not on a 15-minute UTC grid, so the rollups
        /// cannot answer exactly. Only historical local mean time offsets (before 1972) do this.
        public static let unsupportedDayBoundary = Code(.unsupportedDayBoundary)
        /// A dashboard user name that is empty, longer than ``DashboardUser/maximumNameLength``
        /// characters, or holds a control character.
        public static let invalidUserName = Code(.invalidUserName)
        /// A dashboard user name another account already has.
        public static let userNameTaken = Code(.userNameTaken)
        /// No dashboard user has this id.
        public static let unknownUser = Code(.unknownUser)
        /// A section layout larger than ``AccountStore/maximumSectionLayoutBytes``.
        public static let sectionLayoutTooLarge = Code(.sectionLayoutTooLarge)
        /// A data health count below 0 or above ``EventLog/maximumHealthCount``, or a reason code
        /// that is empty or longer than ``EventLog/maximumHealthReasonBytes`` bytes.
        public static let invalidHealthCount = Code(.invalidHealthCount)
        /// An app with 2^32 users, the most the rollups' user numbers (`UInt32`) can tell apart.
        public static let tooManyUsers = Code(.tooManyUsers)
        /// Segment properties with an invalid or repeated name, one named like a built-in
        /// dimension, or more than ``SegmentProperties/maximumEventProperties`` or
        /// ``SegmentProperties/maximumUserProperties``.
        public static let invalidSegmentProperties = Code(.invalidSegmentProperties)
        /// A purchase event name that no event may have (see `Event.isValidName`).
        public static let invalidPurchaseEvent = Code(.invalidPurchaseEvent)
        /// A funnel request out of bounds: fewer than 2 or more than ``Funnel/maximumSteps``
        /// steps, or a window outside 1 second to ``Funnel/maximumWindow`` seconds; the text says which.
        public static let invalidFunnel = Code(.invalidFunnel)
        /// A paths request out of bounds: an empty start, or a depth outside 1 to
        /// ``Paths/maximumDepth``; the text says which.
        public static let invalidPaths = Code(.invalidPaths)
        /// A filter naming a dimension that is neither built in nor one of the app's segment properties.
        public static let unknownFilterProperty = Code(.unknownFilterProperty)
        /// A saved segment's name that, once trimmed, is empty, longer than
        /// ``SavedSegment/maximumNameLength`` characters or ``SavedSegment/maximumNameBytes``
        /// bytes, or holds a control character; the error repeats the name's start.
        public static let invalidSegmentName = Code(.invalidSegmentName)
        /// A filter that cannot be saved as a segment: it has no condition, its text passes
        /// ``SavedSegment/maximumFilterBytes``, or holds a NUL character; the text says which.
        public static let invalidSegmentFilter = Code(.invalidSegmentFilter)
        /// An app that keeps ``SavedSegment/maximumPerApp`` saved segments already.
        public static let tooManySavedSegments = Code(.tooManySavedSegments)
        /// A change that would leave the app without an owner: its only owner cannot be removed
        /// or given another role.
        public static let lastOwner = Code(.lastOwner)
        /// A raw event retention outside 1 to ``RawRetention/maximumDays`` days, or that would not
        /// keep events a day longer than the app's accepted event age (seconds), so that a repeated
        /// event id is always recognized.
        public static let invalidRawRetention = Code(.invalidRawRetention)
        /// Segment properties cannot change for an app whose raw events before `keptSince`
        /// (milliseconds since 1970) were deleted: the rebuild reads raw events, and would lose the
        /// segments of the deleted period.
        public static let rawEventsPruned = Code(.rawEventsPruned)
        /// The app has no user (of its events) with this id, in either build.
        public static let unknownAppUser = Code(.unknownAppUser)
        /// An alert rule that cannot be stored or evaluated; the text says why.
        public static let invalidAlertRule = Code(.invalidAlertRule)
        /// An app that keeps ``AlertRule/maximumPerApp`` alert rules already.
        public static let tooManyAlertRules = Code(.tooManyAlertRules)
        /// An annotation that cannot be stored; the text says why.
        public static let invalidAnnotation = Code(.invalidAnnotation)
        /// An app that keeps ``Annotation/maximumPerApp`` annotations already.
        public static let tooManyAnnotations = Code(.tooManyAnnotations)
    }
}

extension TallyStoreError {
    /// A date that is not a valid `YYYY-MM-DD` calendar day (for example `2026-02-30` or `26-3-1`).
    public static func invalidDate(_ text: String) -> Self {
        Self(.invalidDate, "Invalid date \"\(text)\": expected a calendar day as YYYY-MM-DD.")
    }

    /// A time zone identifier Foundation does not know (for example `Mars/Olympus`).
    public static func invalidTimeZone(_ identifier: String) -> Self {
        Self(.invalidTimeZone, "Unknown time zone \"\(identifier)\": expected an IANA identifier such as Europe/Paris.")
    }

    /// A date range whose end precedes its start, or that spans more than ``ReadScope/maximumDays`` days.
    public static func invalidRange(from: String, to: String) -> Self {
        Self(.invalidRange, "Invalid range \(from)…\(to): the end must not precede the start, and at most \(ReadScope.maximumDays) days.")
    }

    /// No app has this id.
    public static func unknownApp(_ id: AppID) -> Self {
        Self(.unknownApp, "No app has id \(id.rawValue).")
    }

    /// An accepted event age that is not a finite number of seconds from 1 second to
    /// ``App/maximumAcceptedEventAge``.
    public static func invalidAcceptedEventAge(_ seconds: Double) -> Self {
        Self(
            .invalidAcceptedEventAge,
            "Invalid accepted event age of \(seconds) seconds: expected 1 second to \(Int(App.maximumAcceptedEventAge / 86_400)) days.")
    }

    /// The day's boundaries in this time zone are not on a 15-minute UTC grid, so the rollups
    /// cannot answer exactly. Only historical local mean time offsets (before 1972) do this.
    public static func unsupportedDayBoundary(date: String, timeZone: String) -> Self {
        Self(.unsupportedDayBoundary, "The day \(date) in \(timeZone) does not start on a 15-minute boundary in UTC.")
    }

    /// A dashboard user name that is empty, longer than ``DashboardUser/maximumNameLength``
    /// characters, or holds a control character.
    public static func invalidUserName(_ name: String) -> Self {
        Self(
            .invalidUserName,
            "Invalid user name \"\(name)\": expected 1 to \(DashboardUser.maximumNameLength) characters, none of them control characters.")
    }

    /// A dashboard user name another account already has.
    public static func userNameTaken(_ name: String) -> Self {
        Self(.userNameTaken, "The user name \"\(name)\" is taken.")
    }

    /// No dashboard user has this id.
    public static func unknownUser(_ id: DashboardUserID) -> Self {
        Self(.unknownUser, "No dashboard user has id \(id.rawValue).")
    }

    /// A section layout larger than ``AccountStore/maximumSectionLayoutBytes``.
    public static func sectionLayoutTooLarge(bytes: Int) -> Self {
        Self(.sectionLayoutTooLarge, "A section layout of \(bytes) bytes is too large: at most \(AccountStore.maximumSectionLayoutBytes) bytes.")
    }

    /// A data health count below 0 or above ``EventLog/maximumHealthCount``, or a reason code
    /// that is empty or longer than ``EventLog/maximumHealthReasonBytes`` bytes.
    public static func invalidHealthCount(reason: String, count: Int) -> Self {
        Self(
            .invalidHealthCount,
            "Invalid data health count \(count) for reason \"\(reason)\": expected 0 to \(EventLog.maximumHealthCount) and a reason of 1 to \(EventLog.maximumHealthReasonBytes) bytes."
        )
    }

    /// An app with 2^32 users, the most the rollups' user numbers (`UInt32`) can tell apart.
    public static func tooManyUsers(_ id: AppID) -> Self {
        Self(.tooManyUsers, "App \(id.rawValue) has 4,294,967,296 users, the most the store can number.")
    }

    /// Segment properties with an invalid or repeated name, one named like a built-in
    /// dimension, or more than ``SegmentProperties/maximumEventProperties`` or
    /// ``SegmentProperties/maximumUserProperties``.
    public static func invalidSegmentProperties(_ properties: SegmentProperties) -> Self {
        Self(
            .invalidSegmentProperties,
            "Invalid segment properties \((properties.event + properties.user).joined(separator: ", ")): expected distinct property names other than app_version and platform, at most \(SegmentProperties.maximumEventProperties) event and \(SegmentProperties.maximumUserProperties) user properties."
        )
    }

    /// A purchase event name that no event may have (see `Event.isValidName`).
    public static func invalidPurchaseEvent(_ name: String) -> Self {
        Self(
            .invalidPurchaseEvent,
            "Invalid purchase event \"\(name)\": expected an event name of 1 to \(Event.maximumNameLength) characters without U+0000.")
    }

    /// A funnel request out of bounds: fewer than 2 or more than ``Funnel/maximumSteps``
    /// steps, or a window outside 1 second to ``Funnel/maximumWindow`` seconds; the text says which.
    public static func invalidFunnel(_ reason: String) -> Self {
        Self(.invalidFunnel, "Invalid funnel: \(reason).")
    }

    /// A paths request out of bounds: an empty start, or a depth outside 1 to
    /// ``Paths/maximumDepth``; the text says which.
    public static func invalidPaths(_ reason: String) -> Self {
        Self(.invalidPaths, "Invalid paths: \(reason).")
    }

    /// A filter naming a dimension that is neither built in nor one of the app's segment properties.
    public static func unknownFilterProperty(_ name: String) -> Self {
        Self(.unknownFilterProperty, "Unknown filter property \"\(name)\": expected app_version, platform or one of the app's segment properties.")
    }

    /// A saved segment's name that, once trimmed, is empty, longer than
    /// ``SavedSegment/maximumNameLength`` characters or ``SavedSegment/maximumNameBytes``
    /// bytes, or holds a control character; the error repeats the name's start.
    public static func invalidSegmentName(_ name: String) -> Self {
        Self(
            .invalidSegmentName,
            "Invalid segment name \"\(name)\": expected 1 to \(SavedSegment.maximumNameLength) characters (\(SavedSegment.maximumNameBytes) bytes) once trimmed, none of them control characters."
        )
    }

    /// A filter that cannot be saved as a segment: it has no condition, its text passes
    /// ``SavedSegment/maximumFilterBytes``, or holds a NUL character; the text says which.
    public static func invalidSegmentFilter(_ reason: String) -> Self {
        Self(.invalidSegmentFilter, "A segment cannot be saved with this filter: \(reason).")
    }

    /// An app that keeps ``SavedSegment/maximumPerApp`` saved segments already.
    public static func tooManySavedSegments(_ id: AppID) -> Self {
        Self(.tooManySavedSegments, "App \(id.rawValue) keeps \(SavedSegment.maximumPerApp) saved segments, the most it may: delete one first.")
    }

    /// A change that would leave the app without an owner: its only owner cannot be removed
    /// or given another role.
    public static func lastOwner(_ id: AppID) -> Self {
        Self(.lastOwner, "App \(id.rawValue) needs an owner: make another member its owner first.")
    }

    /// A raw event retention outside 1 to ``RawRetention/maximumDays`` days, or that would not
    /// keep events a day longer than the app's accepted event age (seconds), so that a repeated
    /// event id is always recognized.
    public static func invalidRawRetention(days: Int, acceptedEventAge: Double) -> Self {
        Self(
            .invalidRawRetention,
            "Invalid raw event retention of \(days) days: expected 1 to \(RawRetention.maximumDays) days, and at least a day more than the accepted event age (\((acceptedEventAge / 86_400).formatted()) days), so that a repeated event is always recognized."
        )
    }

    /// Segment properties cannot change for an app whose raw events before `keptSince`
    /// (milliseconds since 1970) were deleted: the rebuild reads raw events, and would lose the
    /// segments of the deleted period.
    public static func rawEventsPruned(_ id: AppID, keptSince: Int64) -> Self {
        Self(
            .rawEventsPruned,
            "App \(id.rawValue) no longer keeps its raw events before \(Date(unixMilliseconds: keptSince).formatted(.iso8601)): changing its segment properties would rebuild the segment index from the kept events alone and lose the segments of the earlier ones."
        )
    }

    /// The app has no user (of its events) with this id, in either build.
    public static func unknownAppUser(_ id: String) -> Self {
        Self(.unknownAppUser, "The app has no user \(String(reflecting: id)).")
    }

    /// An alert rule that cannot be stored or evaluated; the text says why.
    public static func invalidAlertRule(_ reason: String) -> Self {
        Self(.invalidAlertRule, "Invalid alert rule: \(reason).")
    }

    /// An app that keeps ``AlertRule/maximumPerApp`` alert rules already.
    public static func tooManyAlertRules(_ id: AppID) -> Self {
        Self(.tooManyAlertRules, "App \(id.rawValue) keeps \(AlertRule.maximumPerApp) alert rules, the most it may: delete one first.")
    }

    /// An annotation that cannot be stored; the text says why.
    public static func invalidAnnotation(_ reason: String) -> Self {
        Self(.invalidAnnotation, "Invalid annotation: \(reason).")
    }

    /// An app that keeps ``Annotation/maximumPerApp`` annotations already.
    public static func tooManyAnnotations(_ id: AppID) -> Self {
        Self(.tooManyAnnotations, "App \(id.rawValue) keeps \(Annotation.maximumPerApp) annotations, the most it may: delete old ones first.")
    }
}
