import Foundation
import Logging
import ServiceLifecycle
import TallyStore

/// Closes the live sockets whose session has ended, however it ended: signed out here or on
/// another collector sharing the database, deleted, or expired; and those whose user's role
/// in the app was revoked (a changed role is the page's from then on). Every ``interval`` it
/// asks the store, in one query each, which sessions of the open pages still live and what
/// roles their users have.
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
                    let ended = open.subtracting(try await server.store.accounts.liveSessions(tokenHashes: open))
                    await MainActor.run { [live = server.live] in live.closePages(ofSessions: ended) }
                    let users = await MainActor.run { [live = server.live] in live.openUsers }
                    let roles = try await server.store.members.roles(of: users)
                    await MainActor.run { [live = server.live] in live.apply(roles: roles, of: users) }
                } catch {
                    logger.warning("cannot check the sessions and roles of open pages", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
