import Componentry
import ServiceLifecycle
import TallyStore

/// Posts ``EventsIngested`` on the server's bus after the batches' answers have gone.
///
/// An ingest request only records what its batch stored and returns; this service's own
/// task posts, so a slow subscriber never delays an HTTP answer. Records that arrive while
/// it posts are merged per app and posted as one event, so the backlog is bounded by the
/// number of apps, and a burst of batches costs subscribers one notice per app.
final class IngestAnnouncer: Service, Sendable {
    private let bus: EventBus
    private let pending = Locked<[AppID: [String: Int]]>([:])
    private let wakeUps: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation

    init(bus: EventBus) {
        self.bus = bus
        (wakeUps, wakeUp) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Records that `acceptedByName` new events of `app` were committed.
    func record(app: AppID, acceptedByName: [String: Int]) {
        guard !acceptedByName.isEmpty else { return }
        pending.withLock { pending in
            pending[app, default: [:]].merge(acceptedByName, uniquingKeysWith: +)
        }
        wakeUp.yield()
    }

    /// Posts what was recorded until graceful shutdown.
    func run() async {
        for await _ in wakeUps.cancelOnGracefulShutdown() {
            let notices = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            for (app, names) in notices {
                bus.post(EventsIngested(app: app, accepted: names.values.reduce(0, +), names: names))
            }
        }
    }
}
