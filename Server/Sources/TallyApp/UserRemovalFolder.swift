import Logging
import ServiceLifecycle
import TallyStore

/// Takes deleted users' events out of the bucket logs (``UserDataStore/foldRemovals()``)
/// when `serve` starts and every `interval` after, until graceful shutdown: a deletion hides
/// them at once, and this folds them out within a minute. A failed round is logged and tried
/// again at the next.
struct UserRemovalFolder: Service {
    let store: EventStore
    /// The time between the end of one round and the start of the next.
    var interval = Duration.seconds(60)
    var logger = Logger(label: "tally.user-removals")

    func run() async {
        await runRounds(every: interval) { await fold() }
    }

    /// One round: folds and logs how many buckets, or why it failed.
    func fold() async {
        do {
            let buckets = try await store.userData.foldRemovals()
            guard buckets > 0 else { return }
            logger.info("folded deleted users' events out of the bucket logs", metadata: ["buckets": "\(buckets)"])
        } catch is CancellationError {
            return
        } catch {
            logger.error("folding deleted users' events failed; trying again at the next round", metadata: ["error": "\(error)"])
        }
    }
}
