public import Foundation
import Subprocess
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An executable (the `tally` command, a fixture of this package, a tool such as `wrk`)
/// running as a child process of a test: its standard output gathered in lines and its
/// standard error in text as they come, so that a test can wait for a line, send a signal or
/// wait for the exit, each within a bound, and a regression fails rather than hangs.
///
/// A child still running when its last reference goes is killed.
///
/// It runs on swift-subprocess, not on Foundation's `Process`: on Linux, `Process.run()` lists
/// `/proc/self/fd` and copies 256 bytes of each entry's name, whatever the entry's length.
/// Past about 1,360 open descriptors the last entry sits at the end of the listing's buffer,
/// and the copy reads beyond it: a CI run crashed there (in `findMaximumOpenFromProcSelfFD`)
/// while the server tests, whose stores run in parallel, held 1,362 (2,871 at most, measured
/// here).
public final class ChildProcess: Sendable {
    /// What the child is, for messages: its executable's name and first argument.
    public let name: String
    /// The child's process id.
    public let id: Int32
    private let printed: Printed
    private let requests: AsyncStream<Request>.Continuation
    private let running: Task<Void, Never>

    /// Starts the built product `product` (see ``BuiltProduct``) with `arguments`; see
    /// ``init(executable:_:environment:onLine:)``.
    public convenience init(
        _ product: String, _ arguments: [String], environment: [String: String] = [:], file: String = #filePath,
        onLine: (@Sendable (String) -> Void)? = nil
    ) async throws {
        guard let executable = BuiltProduct.url(named: product, near: file) else { throw Missing(product: product) }
        try await self.init(executable: executable, arguments, environment: environment, onLine: onLine)
    }

    /// Starts `executable` with `arguments`, and `environment` added to this process's. Each
    /// line it prints goes to `onLine` if given (for a child that prints much), else is kept
    /// for ``lines(from:)`` and ``firstLine(within:_:)``.
    ///
    /// - Throws: When the executable cannot be started.
    public init(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], onLine: (@Sendable (String) -> Void)? = nil
    ) async throws {
        name = "\(executable.lastPathComponent) \(arguments.prefix(1).joined())"
        let printed = Printed(onLine: onLine)
        let (requestStream, requests) = AsyncStream<Request>.makeStream()
        let configuration = Configuration(executable: executable, arguments, environment: environment)
        let started = Started()
        var running: Task<Void, Never>?
        id = try await withCheckedThrowingContinuation { continuation in
            started.continuation.withLock { $0 = continuation }
            running = Task {
                do {
                    let result = try await Subprocess.run(configuration, input: .inputWriter, output: .sequence, error: .sequence) {
                        execution in
                        started.continuation.withLock { $0.take() }?.resume(returning: execution.processIdentifier.value)
                        // Signals and the closing of the input go through the execution, which
                        // signals the process by its descriptor: never another that took its id.
                        let control = Task {
                            for await request in requestStream {
                                switch request {
                                case .signal(let signal): try? execution.send(signal: Signal(rawValue: signal))
                                case .closeInput: try? await execution.standardInputWriter.finish()
                                }
                            }
                        }
                        async let errors: Void = printed.read(execution.standardError, isError: true)
                        await printed.read(execution.standardOutput, isError: false)
                        await errors
                        control.cancel()
                        await control.value
                    }
                    printed.end(result.terminationStatus.code)
                } catch {
                    started.continuation.withLock { $0.take() }?.resume(throwing: error)
                    printed.end(-1)
                }
            }
        }
        self.printed = printed
        self.requests = requests
        self.running = running!
    }

    deinit {
        if isRunning { requests.yield(.signal(SIGKILL)) }
        requests.finish()
    }

    /// Whether the child still runs (or its output is still being read).
    public var isRunning: Bool { printed.state.withLock { $0.status == nil } }

    /// Everything the child wrote to standard output so far, when its lines are kept.
    public var standardOutput: String {
        printed.state.withLock { $0.lines.map { $0 + "\n" }.joined() + String(decoding: $0.partial, as: UTF8.self) }
    }

    /// What the child wrote to standard error so far; once that passes twice
    /// ``maximumErrorText`` bytes, its last ``maximumErrorText`` bytes at least.
    public var standardError: String { printed.state.withLock { String(decoding: $0.errors, as: UTF8.self) } }

    /// How much of a child's standard error is kept.
    public static let maximumErrorText = 1 << 20

    /// The whole lines printed so far from the `index`th on, when they are kept.
    public func lines(from index: Int) -> [String] {
        printed.state.withLock { Array($0.lines[min(index, $0.lines.count)...]) }
    }

    /// Waits until a printed line satisfies `match` and returns what `match` made of it.
    ///
    /// - Throws: ``Timeout`` after `limit`, or when the child exits without printing one.
    public func firstLine<Found>(within limit: Duration = .seconds(60), _ match: (String) -> Found?) async throws -> Found {
        let deadline = ContinuousClock.now + limit
        var checked = 0
        while true {
            let running = isRunning
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

    /// The port of the "tally listening on http://host:port" line, once printed.
    public func listeningPort(within limit: Duration = .seconds(60)) async throws -> Int {
        try await firstLine(within: limit) { line in
            line.firstMatch(of: /listening on http:\/\/[0-9.]+:(\d+)/).flatMap { Int($0.1) }
        }
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        requests.yield(.signal(signal))
    }

    /// Kills the child with SIGKILL, the way a crash or an out-of-memory killer would, and
    /// waits until it is gone.
    public func kill() async {
        send(SIGKILL)
        await running.value
    }

    /// The exit status (128 plus the signal's number for a child a signal ended), or `nil` if
    /// the child still runs after `limit` (then it is killed).
    public func exitStatus(within limit: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + limit
        while isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard !isRunning else {
            await kill()
            return nil
        }
        return printed.state.withLock { $0.status }
    }

    /// Closes the child's standard input.
    public func closeInput() {
        requests.yield(.closeInput)
    }

    /// The error for a wait of `limit` in vain, with what the child last said.
    public func timeout(after limit: Duration, lastLines: [String] = []) -> Timeout {
        Timeout(child: name, waited: limit, lastLines: lastLines, errors: String(standardError.suffix(2_000)))
    }

    /// A child did not do what was awaited in time.
    public struct Timeout: Error, CustomStringConvertible {
        let child: String
        let waited: Duration
        let lastLines: [String]
        let errors: String
        public var description: String {
            "\(child) did not do what was awaited within \(waited); its last lines: \(lastLines); its standard error ends: \(errors)"
        }
    }

    /// The built product is missing.
    public struct Missing: Error, CustomStringConvertible {
        let product: String
        public var description: String { "\(product) is not built (swift build --build-tests builds it)" }
    }

    private enum Request: Sendable {
        case signal(Int32)
        case closeInput
    }

    /// Where the starting task hands the child's id, or the failure to start it, to the
    /// initializer.
    private final class Started: Sendable {
        let continuation = Mutex<CheckedContinuation<Int32, any Error>?>(nil)
    }
}

extension ChildProcess {
    /// What a child run to its end printed, and how it ended.
    public struct Outcome: Sendable {
        /// The exit status; 128 plus the signal's number for a child a signal ended.
        public let status: Int32
        /// Its standard output.
        public let output: Data
        /// Its standard error.
        public let errors: String

        /// The standard output as text.
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` to its end, with `input` on its standard input.
    ///
    /// - Throws: When it cannot be started, or prints more than 256 MiB.
    public static func run(_ executable: URL, _ arguments: [String], input: Data = Data()) async throws -> Outcome {
        let result = try await Subprocess.run(
            Configuration(executable: executable, arguments), input: .data(input), output: .data(limit: 256 << 20),
            error: .data(limit: maximumErrorText))
        return Outcome(
            status: result.terminationStatus.code, output: result.standardOutput,
            errors: String(decoding: result.standardError, as: UTF8.self))
    }

    /// Runs the built product `product` (see ``BuiltProduct``) with `arguments` to its end.
    public static func run(_ product: String, _ arguments: [String], file: String = #filePath) async throws -> Outcome {
        guard let executable = BuiltProduct.url(named: product, near: file) else { throw Missing(product: product) }
        return try await run(executable, arguments)
    }
}

/// What a child printed so far, and how it ended.
private final class Printed: Sendable {
    struct State {
        var lines: [String] = []
        var partial: [UInt8] = []
        var errors: [UInt8] = []
        var status: Int32?
    }

    let state = Mutex(State())
    private let onLine: (@Sendable (String) -> Void)?

    init(onLine: (@Sendable (String) -> Void)?) {
        self.onLine = onLine
    }

    /// Gathers `output` to its end. An error reading it (the child gone while a grandchild
    /// holds the pipe) ends it too.
    func read(_ output: SubprocessOutputSequence, isError: Bool) async {
        do {
            for try await chunk in output {
                let bytes = chunk.withUnsafeBytes { Array($0) }
                if isError { gatherErrors(bytes) } else { gather(bytes) }
            }
        } catch {}
    }

    /// Adds `chunk` of the standard output, and hands on every line it completes.
    private func gather(_ chunk: [UInt8]) {
        let lines = state.withLock { state in
            state.partial += chunk
            guard let last = state.partial.lastIndex(of: UInt8(ascii: "\n")) else { return [String]() }
            let complete = state.partial[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            state.partial.removeSubrange(...last)
            if onLine == nil { state.lines += complete }
            return complete
        }
        if let onLine { lines.forEach(onLine) }
    }

    /// Adds `chunk` of the standard error; past twice ``ChildProcess/maximumErrorText`` bytes,
    /// keeps the last ``ChildProcess/maximumErrorText``.
    private func gatherErrors(_ chunk: [UInt8]) {
        state.withLock { state in
            state.errors += chunk
            if state.errors.count > 2 * ChildProcess.maximumErrorText {
                state.errors.removeFirst(state.errors.count - ChildProcess.maximumErrorText)
            }
        }
    }

    /// Records the exit status.
    func end(_ status: Int32) {
        state.withLock { $0.status = status }
    }
}

extension Configuration {
    /// `executable` with `arguments`, in this process's environment with `environment` added.
    fileprivate init(executable: URL, _ arguments: [String], environment: [String: String] = [:]) {
        self.init(
            executable: .path(FilePath(executable.path)), arguments: Arguments(arguments),
            environment: .inherit.updating(Dictionary(uniqueKeysWithValues: environment.map { (.init(stringLiteral: $0.key), $0.value) })))
    }
}

extension TerminationStatus {
    /// The exit code, or 128 plus the signal's number, as a shell gives them.
    fileprivate var code: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}
