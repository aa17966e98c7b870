import Componentry
import Locking
import ServiceLifecycle
import TallyStore

/// Posts ``EventsIngested`` on the server's bus after the batches' answers have gone, for
/// the batches this server stored and for those other collectors sharing its database stored
/// (``EventStore/ingestNotices()``).
///
/// An ingest request only records what its batch stored and returns; this service's own
/// task posts, so a slow subscriber never delays an HTTP answer. Records that arrive while
/// it posts are merged per app and posted as one event, so the backlog is bounded by the
/// number of apps, and a burst of batches costs subscribers one notice per app.
final class IngestAnnouncer: Service, Sendable {
    private let bus: EventBus
    private let store: EventStore
    private let pending = Locked<[AppID: (accepted: Int, names: [String: Int])]>([:])
    private let wakeUps: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation

    init(bus: EventBus, store: EventStore) {
        self.bus = bus
        self.store = store
        (wakeUps, wakeUp) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Records that `acceptedByName` new events of `app` were committed.
    func record(app: AppID, acceptedByName: [String: Int]) {
        record(app: app, accepted: acceptedByName.values.reduce(0, +), acceptedByName: acceptedByName)
    }

    /// Records that `accepted` new events of `app` were committed, `acceptedByName` of them
    /// by name (all of them, or none when the names are unknown).
    private func record(app: AppID, accepted: Int, acceptedByName: [String: Int]) {
        guard accepted > 0 else { return }
        pending.withLock { pending in
            pending[app, default: (0, [:])].accepted += accepted
            pending[app, default: (0, [:])].names.merge(acceptedByName, uniquingKeysWith: +)
        }
        wakeUp.yield()
    }

    /// Posts what was recorded, and what other processes stored, until graceful shutdown.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await notice in self.store.ingestNotices().cancelOnGracefulShutdown() {
                    self.record(app: notice.app, accepted: notice.accepted, acceptedByName: notice.acceptedByName)
                }
            }
            for await _ in wakeUps.cancelOnGracefulShutdown() {
                let notices = pending.withLock { pending in
                    defer { pending.removeAll(keepingCapacity: true) }
                    return pending
                }
                for (app, (accepted, names)) in notices {
                    bus.post(EventsIngested(app: app, accepted: accepted, names: names))
                }
            }
            group.cancelAll()
        }
    }
}
