import Foundation
import Synchronization
import TallyServerTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func sendSIGKILL(to process: pid_t) {
    kill(process, SIGKILL)
}

/// An executable (of this package, or a tool such as `wrk`) running as a child process, its
/// standard output gathered in lines as they come.
final class ChildProcess: Sendable {
    /// What the child is, for messages.
    let name: String
    private let process: Process
    private let input = Pipe()
    private let output = Pipe()
    private let printed = Mutex((lines: [String](), partial: Data()))
    /// Where the child's standard error goes.
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("tally-child-\(UUID().uuidString).log")

    private let onLine: (@Sendable (String) -> Void)?

    /// Starts the built product `product` with `arguments`; see ``init(executable:_:onLine:)``.
    convenience init(_ product: String, _ arguments: [String], file: String = #filePath, onLine: (@Sendable (String) -> Void)? = nil) throws {
        guard let executable = BuiltProduct.url(named: product, near: file) else { throw Missing(product: product) }
        try self.init(executable: executable, arguments, onLine: onLine)
    }

    /// Starts `executable` with `arguments`. Each line it prints goes to `onLine` if given
    /// (for a child that prints much), else is kept for ``firstLine(within:_:)``.
    init(executable: URL, _ arguments: [String], onLine: (@Sendable (String) -> Void)? = nil) throws {
        self.onLine = onLine
        name = "\(executable.lastPathComponent) \(arguments.prefix(1).joined())"
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        // Not the test's own standard error: a runner that reads it only at the end would
        // leave a chatty child blocked on a full pipe.
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.gather(handle.availableData) }
        try process.run()
    }

    /// Adds `chunk` of the output, and hands on every line it completes.
    private func gather(_ chunk: Data) {
        let lines = printed.withLock { printed in
            printed.partial.append(chunk)
            guard let last = printed.partial.lastIndex(of: UInt8(ascii: "\n")) else { return [String]() }
            let complete = printed.partial[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            printed.partial = Data(printed.partial[(last + 1)...])
            if onLine == nil { printed.lines += complete }
            return complete
        }
        if let onLine { lines.forEach(onLine) }
    }

    deinit {
        if process.isRunning { kill() }
        output.fileHandleForReading.readabilityHandler = nil
        try? FileManager.default.removeItem(at: errors)
    }

    /// The whole lines printed so far from the `index`th on, when they are kept.
    func lines(from index: Int) -> [String] {
        printed.withLock { Array($0.lines[min(index, $0.lines.count)...]) }
    }

    /// The child's process id.
    var id: pid_t { process.processIdentifier }

    /// Whether the child still runs.
    var isRunning: Bool { process.isRunning }

    /// Waits until a printed line satisfies `match` and returns what `match` made of it.
    ///
    /// - Throws: ``Timeout`` after `limit`, or when the child exits without printing one.
    func firstLine<Found>(within limit: Duration = .seconds(60), _ match: (String) -> Found?) async throws -> Found {
        let deadline = ContinuousClock.now + limit
        var checked = 0
        while true {
            let running = process.isRunning
            let lines = self.lines(from: checked)
            for line in lines {
                if let found = match(line) { return found }
            }
            checked += lines.count
            guard ContinuousClock.now < deadline, running else {
                throw timeout(after: limit, lastLines: self.lines(from: max(0, checked - 3)))
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Kills the child with SIGKILL, the way a crash or an out-of-memory killer would, and
    /// waits until it is gone.
    func kill() {
        sendSIGKILL(to: process.processIdentifier)
        process.waitUntilExit()
    }

    /// Closes the child's standard input.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// The built product is missing.
    struct Missing: Error, CustomStringConvertible {
        let product: String
        var description: String { "\(product) is not built (swift build --build-tests builds it)" }
    }

    /// The error for a wait of `limit` in vain, with what the child last said.
    func timeout(after limit: Duration, lastLines: [String] = []) -> Timeout {
        let errors = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return Timeout(child: name, waited: limit, lastLines: lastLines, errors: String(errors.suffix(2_000)))
    }

    /// A child did not do what was awaited in time.
    struct Timeout: Error, CustomStringConvertible {
        let child: String
        let waited: Duration
        let lastLines: [String]
        let errors: String
        var description: String {
            "\(child) did not do what was awaited within \(waited); its last lines: \(lastLines); its standard error ends: \(errors)"
        }
    }
}
