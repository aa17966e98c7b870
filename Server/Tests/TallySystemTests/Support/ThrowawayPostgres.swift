import Foundation
import TallyStoreTesting
import Testing

/// A PostgreSQL cluster of this test's own, from the package's `.ci/postgres` script: one a
/// test may crash without disturbing the server the other tests share.
struct ThrowawayPostgres {
    /// The URL of its `tally` database.
    let url: String
    /// Its folder: data, socket, log and port.
    private let folder: String

    /// Creates and starts a cluster.
    init() throws {
        let (output, errors) = try Self.script([])
        url = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let line = errors.split(separator: "\n").last(where: { $0.hasPrefix("PostgreSQL in ") }) else {
            throw ScriptError(arguments: [], errors: errors)
        }
        folder = String(line.dropFirst("PostgreSQL in ".count))
    }

    /// Stops the cluster the way a power cut would: `pg_ctl stop -m immediate`, no checkpoint,
    /// recovery from the write-ahead log at the next start.
    func crash() throws { try Self.script(["crash", folder]) }

    /// Starts the stopped cluster again, on its port.
    func start() throws { try Self.script(["start", folder]) }

    /// Stops the cluster and deletes its folder.
    func remove() {
        _ = try? Self.script(["stop", folder])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs `.ci/postgres arguments` and returns its standard output and error.
    @discardableResult
    private static func script(_ arguments: [String]) throws -> (output: String, errors: String) {
        let process = Process()
        process.executableURL = try #require(PackageRoot.url()).appending(path: "../.ci/postgres")
        process.arguments = arguments
        // Files, not pipes: the server the script starts may inherit a pipe's end and keep
        // it open, so a pipe would never reach its end.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tally-postgres-\(UUID().uuidString).out")
        let errors = output.appendingPathExtension("err")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        defer { for file in [output, errors] { try? FileManager.default.removeItem(at: file) } }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        let printed = try String(contentsOf: output, encoding: .utf8)
        let complaints = try String(contentsOf: errors, encoding: .utf8)
        guard process.terminationStatus == 0 else { throw ScriptError(arguments: arguments, errors: complaints) }
        return (printed, complaints)
    }

    /// `.ci/postgres` failed.
    struct ScriptError: Error, CustomStringConvertible {
        let arguments: [String]
        let errors: String
        var description: String { ".ci/postgres \(arguments.joined(separator: " ")) failed: \(errors.suffix(2_000))" }
    }
}
