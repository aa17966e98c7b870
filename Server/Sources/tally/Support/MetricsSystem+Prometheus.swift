import Metrics
import Prometheus
import TallyStore

extension MetricsSystem {
    /// Sends every metric of the process to `PrometheusMetricsFactory.defaultRegistry`, which
    /// `GET /metrics` serves, with histogram buckets fit for what each measures: disk waits of
    /// 0.1 ms to 1 s, and group commits of 1 to 5,000 events (a transaction's most).
    static func bootstrapPrometheus() {
        var factory = PrometheusMetricsFactory()
        factory.durationHistogramBuckets[StoreTelemetry.fsyncSeconds] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100), .seconds(1),
        ]
        factory.valueHistogramBuckets[StoreTelemetry.groupCommitEvents] = [1, 10, 100, 500, 1_000, 2_000, 5_000]
        factory.valueHistogramBuckets[StoreTelemetry.groupCommitBatches] = [1, 2, 4, 8, 16, 32, 64, 128]
        bootstrap(factory)
    }
}
