public import Componentry

/// The metric sheet's copy of the number it details: another class than the tiles'
/// ``HeadlineMetric``, the same identity, so the sheet moves with them.
@MainActor
public final class DetailMetric: Syncable {
    public static let syncType = SyncType.metric
    public let id: MetricIdentity
    public let membership = SyncMembership()
    /// The value the sheet shows.
    @Synced public var value: MetricValue

    public static func registerSyncKeys(in keys: inout SyncKeyMap<DetailMetric>) {
        keys.bind(.metricValue, to: \.value)
    }

    /// A copy of `id` showing `value`, in `channel`'s pool.
    init(id: MetricIdentity, value: MetricValue, channel: SyncChannel) {
        self.id = id
        _value = Synced(wrappedValue: value)
        join(channel)
    }
}
