public import Componentry

/// A section's copy of a headline number: the value its tile shows.
///
/// The page makes one per headline; the page that reads a new report emits the new values,
/// and every other copy of the same ``MetricIdentity`` — in other tabs, in detail sheets —
/// takes them from the channel and redraws.
@MainActor
public final class HeadlineMetric: Syncable {
    public static let syncType = SyncType.metric
    public let id: MetricIdentity
    public let membership = SyncMembership()
    /// The value shown.
    @Synced public var value: MetricValue

    public static func registerSyncKeys(in keys: inout SyncKeyMap<HeadlineMetric>) {
        keys.bind(.metricValue, to: \.value)
    }

    /// A copy of `id` showing `value`, in `channel`'s pool.
    init(id: MetricIdentity, value: MetricValue, channel: SyncChannel) {
        self.id = id
        _value = Synced(wrappedValue: value)
        join(channel)
    }
}
