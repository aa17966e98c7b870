public import Componentry
public import Foundation
public import TallyEvent
public import TallyStore

/// Which number a headline is: an app's metric on a local day. Every copy of it — the
/// tile of each open tab, the detail sheet — is one identity on the dashboard's
/// ``Componentry/SyncChannel``, so they all move together.
public struct MetricIdentity: Hashable, Sendable {
    /// The app.
    public var app: AppID
    /// The local day.
    public var day: CalendarDay
    /// The time zone whose day it is; the app's when `nil`.
    public var timeZone: TimeZone?
    /// The metric's key, as in `data-metric`.
    public var key: String

    /// Creates an identity.
    public init(app: AppID, day: CalendarDay, timeZone: TimeZone?, key: String) {
        self.app = app
        self.day = day
        self.timeZone = timeZone
        self.key = key
    }
}

extension SyncType<MetricIdentity> {
    /// A headline number of a dashboard.
    public static var metric: Self { Self("metric") }
}

extension SyncKey<MetricValue> {
    /// The number as shown, with its second line.
    public static var metricValue: Self { Self("metricValue") }
}
