import Foundation
import Locking

/// The streams of ``EventLog/commits()``: what this process commits is yielded to each.
///
/// A stream holds at most ``backlog`` commits its reader has not taken, dropping the oldest
/// past that; a stream is forgotten when its reader stops, so neither grows without end.
final class CommitFeed: Sendable {
    /// The most commits a stream keeps for a reader that does not keep up.
    static let backlog = 4_096

    private let streams = Locked<[UUID: AsyncStream<EventsCommitted>.Continuation]>([:])

    /// A new stream of commits, from now on; `remote` (another process's commits) is yielded
    /// into it too, for as long as it is read.
    func stream(merging remote: AsyncStream<EventsCommitted>) -> AsyncStream<EventsCommitted> {
        let (commits, continuation) = AsyncStream.makeStream(of: EventsCommitted.self, bufferingPolicy: .bufferingNewest(Self.backlog))
        let id = UUID()
        streams.withLock { $0[id] = continuation }
        let forwarding = Task {
            for await commit in remote { continuation.yield(commit) }
        }
        continuation.onTermination = { [weak self] _ in
            forwarding.cancel()
            self?.streams.withLock { $0[id] = nil }
        }
        return commits
    }

    /// Yields `commit` to every stream.
    func publish(_ commit: EventsCommitted) {
        guard commit.count > 0 else { return }
        streams.withLock { streams in
            for continuation in streams.values { continuation.yield(commit) }
        }
    }

    /// How many streams are open; for tests of the bound.
    var openStreams: Int { streams.withLock(\.count) }
}
