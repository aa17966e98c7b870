import Componentry
import ServiceLifecycle
import TallyStore

/// Posts every durable commit of the store (``EventLog/commits()``: this process's and
/// other collectors') on the bus, where the dashboard's live pages hear it, until graceful
/// shutdown. Ingest requests never wait for it: the store yields and goes on.
struct CommitForwarder: Service {
    let store: EventStore
    let bus: EventBus

    func run() async {
        for await commit in store.events.commits().cancelOnGracefulShutdown() { bus.post(commit) }
    }
}
