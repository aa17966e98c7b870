import Benchmark
import Componentry
import Dispatch

// SyncChannel: the cost of an emit that reaches 100 copies of one entity while the pool
// holds 0, 10k or 1M other live objects (the cost should not depend on them), and the cost
// of an object joining and leaving the pool. Everything runs on the main actor, where
// Syncable objects live, so emits apply synchronously. Each benchmark measures `scalingFactor` operations per
// iteration, so the reported time is per emit (or per join + leave).

extension SyncType<Int> {
    static var user: Self { Self("user") }
}

extension SyncKey<Int> {
    static var likes: Self { Self("likes") }
}

/// A model as apps write them: an observable synced property.
final class UserModel: Syncable {
    static let syncType = SyncType.user
    let id: Int
    let membership = SyncMembership()
    @Synced var likes = 0

    static func registerSyncKeys(in keys: inout SyncKeyMap<UserModel>) {
        keys.bind(.likes, to: \.likes)
    }

    init(id: Int) {
        self.id = id
    }
}

/// The leanest model (a plain property), so join + leave measures the pool.
final class LeanModel: Syncable {
    static let syncType = SyncType.user
    let id: Int
    let membership = SyncMembership()
    var likes = 0

    static func registerSyncKeys(in keys: inout SyncKeyMap<LeanModel>) {
        keys.bind(.likes, to: \.likes)
    }

    init(id: Int) {
        self.id = id
    }
}

/// A channel whose pool holds 100 copies of user -1 and `others` other users; built once
/// per size and kept, since a pool of a million takes a while to fill.
@MainActor
final class Pool {
    let channel = SyncChannel()
    let objects: [UserModel]

    init(others: Int) {
        objects = channel.join((0..<100).map { _ in UserModel(id: -1) } + (0..<others).map { UserModel(id: $0) })
    }

    private static var pools: [Int: Pool] = [:]

    static func holding(others: Int) -> Pool {
        if let pool = pools[others] { return pool }
        let pool = Pool(others: others)
        pools[others] = pool
        return pool
    }
}

let otherCounts = [0, 10_000, 1_000_000]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )

    // MARK: emit
    // `benchmark` is not Sendable, so it stays here; only the measured loop hops to the
    // main actor, once per iteration of `scaledIterations` operations.

    for others in otherCounts {
        Benchmark("emit/100 copies/\(others) others") { benchmark async in
            let iterations = benchmark.scaledIterations
            await MainActor.run { Pool.holding(others: others).channel.emit(.likes, 0, to: .user, id: -1) }
            benchmark.startMeasurement()
            await MainActor.run {
                let pool = Pool.holding(others: others)
                for i in iterations { pool.channel.emit(.likes, i + 1, to: .user, id: -1) }
            }
            benchmark.stopMeasurement()
        }
    }

    // MARK: join + leave

    for others in otherCounts {
        Benchmark("join+leave/\(others) others", configuration: .init(scalingFactor: .kilo)) { benchmark async in
            let iterations = benchmark.scaledIterations
            await MainActor.run { _ = Pool.holding(others: others) }
            benchmark.startMeasurement()
            await MainActor.run {
                let pool = Pool.holding(others: others)
                for i in iterations {
                    pool.channel.join(LeanModel(id: 2_000_000 + i))  // freed at once: leaves
                }
            }
            benchmark.stopMeasurement()
        }
    }

    // MARK: 1M objects created and freed

    Benchmark(
        "create+join+free/1M objects",
        configuration: .init(
            metrics: [.wallClock, .custom("entries left", useScalingFactor: false)], scalingFactor: .mega,
            maxIterations: 3
        )
    ) { benchmark async in
        let iterations = benchmark.scaledIterations
        let channel = await MainActor.run { createJoinAndFree(iterations) }
        benchmark.stopMeasurement()
        benchmark.measurement(.custom("entries left", useScalingFactor: false), channel.snapshot().objectCount)
        precondition(channel.snapshot().identityCount == 0, "the pool kept entries of freed objects")
    }
}

/// Creates `iterations.count` objects, joins them to a new channel and frees them; returns
/// the channel, whose pool should then be empty.
@MainActor
private func createJoinAndFree(_ iterations: Range<Int>) -> SyncChannel {
    let channel = SyncChannel()
    var models: [UserModel]? = channel.join(iterations.map { UserModel(id: $0 % 250_000) })
    withExtendedLifetime(models) {
        precondition(channel.snapshot().objectCount == iterations.count)
    }
    models = nil
    return channel
}
