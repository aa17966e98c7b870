import Dispatch
import Foundation
import Synchronization

/// Makes SIGTERM and SIGINT end `tally serve` within a few seconds, whatever start-up,
/// the demo or shutdown is doing, as a service manager expects.
///
/// Once the server listens, the signal starts its graceful shutdown (the server's service
/// group hears it too) and the watch gives that ``grace`` to finish before it exits the
/// process. Before the server listens there is nothing to finish, and it exits at once.
final class TerminationWatch {
    /// How long a graceful shutdown may take before the process exits anyway.
    static let grace = DispatchTimeInterval.seconds(5)

    private let listening = ListeningFlag()
    private let sources: [any DispatchSourceSignal]

    /// Starts watching; the watch lasts until ``cancel()``.
    init() {
        let queue = DispatchQueue(label: "tally.termination")
        let listening = listening
        sources = [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)  // the dispatch source takes the signal instead
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                guard listening.value.load(ordering: .acquiring) else { exit(0) }
                queue.asyncAfter(deadline: .now() + Self.grace) {
                    FileHandle.standardError.write(Data("tally: shutdown did not finish in time; exiting\n".utf8))
                    exit(1)
                }
            }
            source.resume()
            return source
        }
    }

    /// Tells the watch that the server listens, so a signal now shuts it down gracefully.
    func serverIsListening() {
        listening.value.store(true, ordering: .releasing)
    }

    /// Stops watching.
    func cancel() {
        for source in sources { source.cancel() }
    }

    private final class ListeningFlag: Sendable {
        let value = Atomic(false)
    }
}
