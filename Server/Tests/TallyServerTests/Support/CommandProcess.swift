import Foundation
import Synchronization
import TallyServerTesting
import Testing

/// A `tally` child process whose output is collected as it comes, for tests that wait for
/// a line, send a signal, or wait for the exit, each within a bound so a regression fails
/// rather than hangs.
final class CommandProcess: Sendable {
    private let process: Process
    private let pipes: [Pipe]
    private let output = Collected()
    private let errors = Collected()

    /// Starts `tally` with `arguments`, and `environment` added to this process's.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        guard let tally = BuiltProduct.url(named: "tally") else { throw CommandFailure(status: -1, output: "the tally command is not built") }
        process.executableURL = tally
        process.arguments = arguments
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        for (pipe, collected) in [(standardOutput, output), (standardError, errors)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                collected.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        pipes = [standardOutput, standardError]
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // A handler left on would keep a dispatch source on a descriptor the pipe closes.
        for pipe in pipes { pipe.fileHandleForReading.readabilityHandler = nil }
    }

    /// Everything the process wrote to standard output so far.
    var standardOutput: String { output.text.withLock { $0 } }
    /// Everything the process wrote to standard error so far.
    var standardError: String { errors.text.withLock { $0 } }

    /// The port of the "tally listening on http://host:port" line, once printed.
    func listeningPort(within seconds: Double = 60) async throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, process.isRunning {
            if let match = standardOutput.firstMatch(of: /listening on http:\/\/[0-9.]+:(\d+)/), let port = Int(match.1) {
                return port
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CommandFailure(status: -1, output: "no listening line: \(standardOutput) \(standardError)")
    }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status, or `nil` if the process still runs after `seconds` (then it is killed).
    func exitStatus(within seconds: Double) async throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }
}

/// Text a pipe delivered so far.
private final class Collected: Sendable {
    let text = Mutex("")
}

struct CommandFailure: Error {
    let status: Int32
    let output: String
}
