import Logging
import ServiceLifecycle
import TallyStore

/// Deletes the raw events apps no longer keep (``DataRetention/prune(now:)``) when
/// `serve` starts and every `interval` after, until graceful shutdown. A failed pruning is
/// logged and tried again at the next round; ingest goes on meanwhile.
struct RawEventPruner: Service {
    let store: EventStore
    /// The time between the end of one pruning and the start of the next.
    var interval = Duration.seconds(3_600)
    var logger = Logger(label: "tally.pruner")

    func run() async {
        await runRounds(every: interval) { await prune() }
    }

    /// One round: prunes and logs what it did, or why it failed.
    func prune() async {
        do {
            let pruning = try await store.dataRetention.prune()
            guard pruning.deletedEvents > 0 else { return }
            logger.info(
                "pruned raw events",
                metadata: [
                    "events": "\(pruning.deletedEvents)", "batches": "\(pruning.batches)", "longest_batch": "\(pruning.longestBatch)",
                    "emptied_partitions": "\(pruning.emptiedPartitions.joined(separator: ","))",
                ])
        } catch is CancellationError {
            return
        } catch {
            logger.error("pruning raw events failed; trying again at the next round", metadata: ["error": "\(error)"])
        }
    }
}
