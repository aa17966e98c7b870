/// How long an app keeps its raw events (``App/rawRetentionDays``), as
/// ``AppStore/update(_:timeZone:acceptedEventAge:segmentProperties:rawRetention:)`` sets it.
///
/// Metrics never need raw events: they read rollups, which are kept forever. Raw events are
/// what exports, user timelines and property metrics read.
public enum RawRetention: Hashable, Sendable {
    /// Keep every raw event: the default, and the way back from ``days(_:)``. Events already
    /// deleted stay deleted.
    case forever
    /// Keep the raw events of the last `days` whole UTC days (see ``App/rawEventsHorizon(at:)``).
    case days(Int)

    /// The longest retention: 100 years, as ``App/maximumAcceptedEventAge``.
    public static let maximumDays = 36_525

    /// The stored value: `nil` for ``forever``.
    var storedDays: Int? {
        switch self {
        case .forever: nil
        case .days(let days): days
        }
    }
}
