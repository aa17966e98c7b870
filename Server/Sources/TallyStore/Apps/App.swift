public import Foundation

/// An app registered with the store: the unit that owns events, keys and metrics.
///
/// Values are snapshots read from the database; use ``AppStore/update(_:timeZone:acceptedEventAge:)``
/// to change the stored settings.
public struct App: Hashable, Sendable {
    /// The app's stable identifier, assigned by ``AppStore/create(name:timeZone:acceptedEventAge:)``.
    public var id: AppID
    /// The display name given at creation.
    public var name: String
    /// The IANA time zone identifier (for example `"Europe/Paris"`) that defines the app's days
    /// when a metrics request names no time zone.
    public var timeZone: String
    /// How old an event may be, relative to the moment it is received, and still be accepted.
    ///
    /// The store does not enforce it: the ingest server rejects older events before calling
    /// ``EventLog/insert(_:app:)``. Defaults to ``App/defaultAcceptedEventAge``.
    public var acceptedEventAge: TimeInterval
    /// When the app was created.
    public var createdAt: Date
    /// The properties, beside `app_version` and `platform`, that segments and funnels filter
    /// and break down by.
    public var segmentProperties = SegmentProperties()
    /// The name of the events that carry a purchase (see ``Purchase``): what revenue is
    /// counted from. Defaults to ``defaultPurchaseEvent``.
    public var purchaseEvent = App.defaultPurchaseEvent
    /// How many whole UTC days of raw events the app keeps (see ``RawRetention``); `nil` keeps
    /// them all, the default. Rollups, and so every metric, are kept whatever it is.
    public var rawRetentionDays: Int?
    /// The first instant of the app's kept raw events, once pruning has deleted the events
    /// before it (or is deleting them); `nil` while no raw event was ever deleted. Exports,
    /// timelines and property metrics cover only the events from it on, and say so.
    public var rawEventsKeptSince: Date?

    /// The purchase event of a new app: `purchase`.
    public static let defaultPurchaseEvent = "purchase"
    /// The accepted event age of a new app: 30 days.
    public static let defaultAcceptedEventAge: TimeInterval = 30 * 86_400
    /// The longest accepted event age: 100 years.
    public static let maximumAcceptedEventAge: TimeInterval = 36_525 * 86_400

    /// Throws unless `age` is a finite number of seconds from 1 to ``maximumAcceptedEventAge``.
    static func validate(acceptedEventAge age: TimeInterval) throws(TallyStoreError) {
        guard age.isFinite, (1...maximumAcceptedEventAge).contains(age) else { throw .invalidAcceptedEventAge(age) }
    }
}

/// The identifier of an ``App``: the row id the store assigned, stable for the app's lifetime.
public struct AppID: RawRepresentable, Hashable, Sendable, Codable {
    /// The underlying integer, suitable for URLs and logs.
    public var rawValue: Int64

    /// Wraps an integer, typically one parsed from a URL; it names an app only if the store has one with that id.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Where the app's events from debug builds are kept (``Event/isDebug``): apart from
    /// production in every table keyed by app, so that every metric answers for either. It
    /// names the same app, with the negative of its id as its raw value.
    public var debug: AppID { AppID(rawValue: rawValue > 0 ? -rawValue : rawValue) }

    /// The app's production events, for the id of either. The one id without a positive
    /// twin, `Int64.min` (a URL may name it), stays itself, an id no app has, instead of
    /// trapping as `abs` does.
    public var production: AppID { AppID(rawValue: rawValue < 0 ? 0 &- rawValue : rawValue) }

    /// Whether this id names an app's events from debug builds.
    public var isDebug: Bool { rawValue < 0 }
}
