public import Foundation
public import TallyApp
public import TallyHTTP
public import TallyServer
public import TallyStore
public import TallyStoreTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The application `tally serve` runs (``TallyApp/TallyApplication``), listening on a free
/// loopback port over a fresh database, for tests that speak real HTTP to it (as the SDK and
/// other programs do).
///
/// ```swift
/// try await LiveServer.with { server in
///     let app = try await server.store.createApp(name: "Test")
///     let (status, body) = try await server.request("/healthz")
/// }
/// ```
public struct LiveServer: Sendable {
    /// The server's base URL, `http://127.0.0.1:<port>`.
    public let url: URL
    /// What is served: the collector, the dashboard and their store.
    public let application: TallyApplication
    /// The store behind the server, to create apps and check what was stored.
    public var store: EventStore { application.store }
    /// The collector's API.
    public var server: TallyServer { application.collector }

    /// Starts a server on a fresh database of `database`'s kind with `configuration` (its host
    /// and port are replaced by 127.0.0.1 and a free port, it logs only critical messages, and
    /// its read bounds, left at the defaults, are ``TallyHTTP/ReadAdmission/Limits/relaxedForTests``),
    /// runs `body`, then shuts the server down gracefully and deletes a SQLite database.
    public static func with<Result: Sendable>(
        database: TestDatabase = .sqlite,
        configuration: ServerSettings = .init(),
        _ body: (LiveServer) async throws -> Result
    ) async throws -> Result {
        let path = try await database.makeDatabase()
        defer { database.removeDatabase(path) }
        return try await with(store: try await EventStore(database: path), configuration: configuration, body)
    }

    /// Starts a server over `store` with `configuration` (on 127.0.0.1 and a free port, logging
    /// only critical messages), runs `body`, then shuts the server down gracefully (see
    /// ``TallyApp/ServingApplication/stop()``).
    public static func with<Result: Sendable>(
        store: EventStore,
        configuration: ServerSettings = .init(),
        _ body: (LiveServer) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        if configuration.reads == ServerSettings().reads { configuration.reads = .relaxedForTests }
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.logLevel = .critical  // the shutdown at the end of a test is not news
        let serving = try await TallyApplication(store: store, settings: configuration).start()
        let live = LiveServer(url: URL(string: "http://127.0.0.1:\(serving.port)")!, application: serving.application)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(live))
        } catch {
            outcome = .failure(error)
        }
        let stopped: Swift.Result<Void, any Error>
        do {
            try await serving.stop()
            stopped = .success(())
        } catch {
            stopped = .failure(error)
        }
        let result = try outcome.get()  // the test's error first, then the server's
        try stopped.get()
        return result
    }

    /// Sends one request to the server and returns the status, headers (names in lower
    /// case) and body. `path` starts with `/` and may carry a query.
    public func request(
        _ path: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        guard let target = URL(string: url.absoluteString + path) else { throw URLError(.badURL) }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return (http.statusCode, fields, data)
    }
}

extension ReadAdmission.Limits {
    /// The read bounds of the test servers: 8 reads at once and 64 waiting per reader, within
    /// 10 minutes. The tests run hundreds of servers at once on a few cores, where a read
    /// that takes milliseconds alone can take seconds; a test of the bounds sets its own.
    public static let relaxedForTests = Self(running: 8, runningPerReader: 8, waitingPerReader: 64, deadline: .seconds(600))
}
