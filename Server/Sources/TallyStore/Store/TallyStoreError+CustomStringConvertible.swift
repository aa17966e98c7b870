import Foundation
import TallyEvent

extension TallyStoreError: CustomStringConvertible {
    /// A sentence describing the error, suitable for an API error response.
    public var description: String {
        switch self {
        case .invalidDate(let text):
            "Invalid date \"\(text)\": expected a calendar day as YYYY-MM-DD."
        case .invalidTimeZone(let identifier):
            "Unknown time zone \"\(identifier)\": expected an IANA identifier such as Europe/Paris."
        case .invalidRange(let from, let to):
            "Invalid range \(from)…\(to): the end must not precede the start, and at most \(EventStore.maximumRangeDays) days."
        case .unknownApp(let id):
            "No app has id \(id.rawValue)."
        case .invalidAcceptedEventAge(let seconds):
            "Invalid accepted event age of \(seconds) seconds: expected 1 second to \(Int(App.maximumAcceptedEventAge / 86_400)) days."
        case .unsupportedDayBoundary(let date, let timeZone):
            "The day \(date) in \(timeZone) does not start on a 15-minute boundary in UTC."
        case .invalidUserName(let name):
            "Invalid user name \"\(name)\": expected 1 to \(DashboardUser.maximumNameLength) characters, none of them control characters."
        case .userNameTaken(let name):
            "The user name \"\(name)\" is taken."
        case .unknownUser(let id):
            "No dashboard user has id \(id.rawValue)."
        case .sectionLayoutTooLarge(let bytes):
            "A section layout of \(bytes) bytes is too large: at most \(EventStore.maximumSectionLayoutBytes) bytes."
        case .invalidHealthCount(let reason, let count):
            "Invalid data health count \(count) for reason \"\(reason)\": expected 0 to \(EventStore.maximumHealthCount) and a reason of 1 to \(EventStore.maximumHealthReasonBytes) bytes."
        case .tooManyUsers(let id):
            "App \(id.rawValue) has 4,294,967,296 users, the most the store can number."
        case .invalidSegmentProperties(let properties):
            "Invalid segment properties \((properties.event + properties.user).joined(separator: ", ")): expected distinct property names other than app_version and platform, at most \(SegmentProperties.maximumEventProperties) event and \(SegmentProperties.maximumUserProperties) user properties."
        case .invalidPurchaseEvent(let name):
            "Invalid purchase event \"\(name)\": expected an event name of 1 to \(Event.maximumNameLength) characters without U+0000."
        case .invalidFunnel(let reason):
            "Invalid funnel: \(reason)."
        case .invalidPaths(let reason):
            "Invalid paths: \(reason)."
        case .unknownFilterProperty(let name):
            "Unknown filter property \"\(name)\": expected app_version, platform or one of the app's segment properties."
        case .invalidSegmentName(let name):
            "Invalid segment name \"\(name)\": expected 1 to \(SavedSegment.maximumNameLength) characters (\(SavedSegment.maximumNameBytes) bytes) once trimmed, none of them control characters."
        case .invalidSegmentFilter(let reason):
            "A segment cannot be saved with this filter: \(reason)."
        case .tooManySavedSegments(let id):
            "App \(id.rawValue) keeps \(SavedSegment.maximumPerApp) saved segments, the most it may: delete one first."
        case .lastOwner(let id):
            "App \(id.rawValue) needs an owner: make another member its owner first."
        case .invalidRawRetention(let days, let age):
            "Invalid raw event retention of \(days) days: expected 1 to \(RawRetention.maximumDays) days, and at least a day more than the accepted event age (\((age / 86_400).formatted()) days), so that a repeated event is always recognized."
        case .rawEventsPruned(let id, let keptSince):
            "App \(id.rawValue) no longer keeps its raw events before \(Date(unixMilliseconds: keptSince).formatted(.iso8601)): changing its segment properties would rebuild the segment index from the kept events alone and lose the segments of the earlier ones."
        case .unknownAppUser(let id):
            "The app has no user \(String(reflecting: id))."
        case .invalidAlertRule(let reason):
            "Invalid alert rule: \(reason)."
        case .tooManyAlertRules(let id):
            "App \(id.rawValue) keeps \(AlertRule.maximumPerApp) alert rules, the most it may: delete one first."
        case .invalidAnnotation(let reason):
            "Invalid annotation: \(reason)."
        case .tooManyAnnotations(let id):
            "App \(id.rawValue) keeps \(Annotation.maximumPerApp) annotations, the most it may: delete old ones first."
        }
    }
}
