import Foundation
import Logging
import ServiceLifecycle
import TallyStore

/// Closes the live sockets whose session has ended, however it ended: signed out here or on
/// another collector sharing the database, deleted, or expired. Every ``interval`` it asks
/// the store, in one query, which sessions of the open pages still live.
struct SessionWatch: Service {
    /// How often the sessions are checked: a socket outlives its session by at most this
    /// much and a query's time.
    static let interval = Duration.milliseconds(250)

    let server: DashboardServer

    func run() async {
        let logger = Logger(label: "tally.sessions")
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.interval)
                let open = await MainActor.run { [live = server.live] in live.openSessions }
                guard !open.isEmpty else { continue }
                do {
                    let ended = open.subtracting(try await server.store.liveSessions(tokenHashes: open))
                    await MainActor.run { [live = server.live] in live.closePages(ofSessions: ended) }
                } catch {
                    logger.warning("cannot check the sessions of open pages", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
