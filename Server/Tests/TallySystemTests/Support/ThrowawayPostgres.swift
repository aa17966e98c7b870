import Foundation
import TallyServerTesting
import TallyStoreTesting
import Testing

/// A PostgreSQL cluster of this test's own, from the package's `.ci/postgres` script: one a
/// test may crash without disturbing the server the other tests share.
struct ThrowawayPostgres {
    /// The URL of its `tally` database.
    let url: String
    /// Its folder: data, socket, log and port.
    private let folder: String

    /// Runs `body` with a cluster of its own, which it then stops and deletes, whether `body`
    /// throws or not.
    static func with<Result>(_ body: (ThrowawayPostgres) async throws -> Result) async throws -> Result {
        let server = try await ThrowawayPostgres()
        do {
            let result = try await body(server)
            await server.remove()
            return result
        } catch {
            await server.remove()
            throw error
        }
    }

    /// Creates and starts a cluster.
    private init() async throws {
        let (output, errors) = try await Self.script([])
        url = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let line = errors.split(separator: "\n").last(where: { $0.hasPrefix("PostgreSQL in ") }) else {
            throw ScriptError(arguments: [], errors: errors)
        }
        folder = String(line.dropFirst("PostgreSQL in ".count))
    }

    /// Stops the cluster the way a power cut would: `pg_ctl stop -m immediate`, no checkpoint,
    /// recovery from the write-ahead log at the next start.
    func crash() async throws { try await Self.script(["crash", folder]) }

    /// Starts the stopped cluster again, on its port.
    func start() async throws { try await Self.script(["start", folder]) }

    /// Stops the cluster and deletes its folder.
    private func remove() async {
        _ = try? await Self.script(["stop", folder])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs `.ci/postgres arguments` and returns its standard output and error.
    @discardableResult
    private static func script(_ arguments: [String]) async throws -> (output: String, errors: String) {
        let outcome = try await ChildProcess.run(try #require(PackageRoot.url()).appending(path: "../.ci/postgres"), arguments)
        guard outcome.status == 0 else { throw ScriptError(arguments: arguments, errors: outcome.errors) }
        return (outcome.text, outcome.errors)
    }

    /// `.ci/postgres` failed.
    struct ScriptError: Error, CustomStringConvertible {
        let arguments: [String]
        let errors: String
        var description: String { ".ci/postgres \(arguments.joined(separator: " ")) failed: \(errors.suffix(2_000))" }
    }
}
