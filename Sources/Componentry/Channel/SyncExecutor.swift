public import Dispatch
import Foundation

/// Where a ``SyncChannel`` applies updates to its objects: the main actor (the default),
/// or a serial dispatch queue.
///
/// Pooled objects are expected to be used there: the channel loads and sets them only
/// there. An emit made there applies before it returns; one made anywhere else is
/// handed over and applied there, in the order emits were handed over from each thread.
public struct SyncExecutor: Sendable {
    let isCurrent: @Sendable () -> Bool
    let enqueue: @Sendable (_ job: @escaping @Sendable () -> Void) -> Void

    /// The main actor: the main thread, or the thread that runs the main queue's work where
    /// the main thread does not (as on Linux after `dispatchMain()`). Emits handed over
    /// from other threads are applied when the main queue runs: a process needs a run
    /// loop or `dispatchMain()`, as apps and test runners have.
    public static var mainActor: Self {
        Self(
            isCurrent: { Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true },
            enqueue: { DispatchQueue.main.async(execute: $0) }
        )
    }

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// The serial queue `queue`, which it marks (with `setSpecific`) to know when code
    /// runs on it.
    public static func queue(_ queue: DispatchQueue) -> Self {
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        return Self(isCurrent: { DispatchQueue.getSpecific(key: key) == true }, enqueue: { queue.async(execute: $0) })
    }
}
