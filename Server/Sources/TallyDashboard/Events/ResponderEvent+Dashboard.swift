public import Componentry
public import TallyEvent
public import TallyStore

/// Where a section should go: raised by a section's element, taken by the page.
public struct SectionMove: Hashable, Sendable {
    /// The section's id.
    public var section: String
    /// Its new index among all sections.
    public var index: Int
}

extension ResponderEvent<SectionMove> {
    /// A section is moved to a new place (the section manager).
    public static var moveSection: Self { Self("moveSection") }
}

extension ResponderEvent<String> {
    /// A section, by id, is hidden (the section manager).
    public static var hideSection: Self { Self("hideSection") }
    /// A hidden section, by id, is shown again (the section manager).
    public static var showSection: Self { Self("showSection") }
    /// The search box's text changed.
    public static var search: Self { Self("search") }
    /// The page's filter is saved as a segment of this name (the filter bar's form).
    public static var saveSegment: Self { Self("saveSegment") }
    /// The saved segment of this name is deleted (the filter bar).
    public static var deleteSegment: Self { Self("deleteSegment") }
    /// The dashboard user of this name is no longer a member of the app (the members sheet).
    public static var removeMember: Self { Self("removeMember") }
    /// The stored alert rule of this name is deleted (the alerts sheet).
    public static var deleteAlert: Self { Self("deleteAlert") }
}

extension ResponderEvent<AlertRule> {
    /// An alert rule is stored, or replaces the stored one of its name (the alerts sheet).
    public static var saveAlert: Self { Self("saveAlert") }
}

/// An annotation to add: its day, of the page's time zone, and its text.
public struct NewAnnotation: Hashable, Sendable {
    /// The day it marks.
    public var day: CalendarDay
    /// Its text.
    public var text: String
}

extension ResponderEvent<NewAnnotation> {
    /// An annotation is added (the alerts sheet).
    public static var addAnnotation: Self { Self("addAnnotation") }
}

extension ResponderEvent<Int64> {
    /// The annotation of this id is deleted (the alerts sheet).
    public static var deleteAnnotation: Self { Self("deleteAnnotation") }
}

/// A dashboard user, by name, and the role they are to have in the page's app.
public struct MemberChange: Hashable, Sendable {
    /// The user's name.
    public var name: String
    /// The role given.
    public var role: AppRole
}

extension ResponderEvent<MemberChange> {
    /// A user is given a role in the app, or their role is changed (the members sheet).
    public static var setMemberRole: Self { Self("setMemberRole") }
}

extension ResponderEvent<PageQuery.Sheet?> {
    /// A sheet is opened, or with `nil` the open one closed.
    public static var showSheet: Self { Self("showSheet") }
}

extension ResponderEvent<ClosedRange<CalendarDay>> {
    /// The date picker chose a range of days.
    public static var chooseRange: Self { Self("chooseRange") }
}

extension ResponderEvent<Bool> {
    /// The date picker's "compare with the previous period" changed.
    public static var compare: Self { Self("compare") }
    /// A section's "Show all" (`true`) or "Show fewer" (`false`): taken by the section.
    public static var expandList: Self { Self("expandList") }
}

extension ResponderEvent<Void> {
    /// The reload button.
    public static var reload: Self { Self("reload") }
}

extension ResponderEvent<SegmentFilter> {
    /// The filter changed: a condition added or removed, or a saved segment chosen.
    public static var setFilter: Self { Self("setFilter") }
}

extension ResponderEvent<PageNavigation> {
    /// The browser went back or forward to another address of the page.
    public static var navigate: Self { Self("navigate") }
}

extension ResponderEvent<UserTimeline.Cursor> {
    /// The user sheet's "Older events": the events before this place of its timeline.
    public static var readOlderEvents: Self { Self("readOlderEvents") }
}
