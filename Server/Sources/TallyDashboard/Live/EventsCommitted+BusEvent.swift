public import Componentry
public import TallyStore

/// A commit of the store is a bus event whose sub-type is the app's id, so that a subscriber
/// hears one app's commits only: `bus.on(EventsCommitted.self).subType(EventsCommitted.subType(of: app))`.
///
/// Declared here, where the bus carries it, so the store stays free of Componentry.
extension EventsCommitted: BusEvent {
    /// The app's id, as text: subscribers filter on it.
    public var subType: String? { Self.subType(of: app) }

    /// The sub-type of the commits of `app`.
    public static func subType(of app: AppID) -> String { String(app.rawValue) }
}
