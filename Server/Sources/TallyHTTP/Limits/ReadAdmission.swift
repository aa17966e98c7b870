public import Foundation
import Locking

/// Admission control for costly reads (funnels, paths, retention, breakdowns, timelines,
/// dashboard reports): how many run at once in all and per reader, how many wait, and how
/// long one may take.
///
/// A read computes on the machine's cores beside ingest: fifty funnels at once took both
/// cores of a two-core server and held another app's ingest acknowledgements for seconds.
/// So at most ``Limits/running`` reads run at once (half the cores by default), at most
/// ``Limits/runningPerReader`` of them for one reader (an app's API tokens, a dashboard user,
/// the live updates), and at most ``Limits/waitingPerReader`` more of that reader wait.
/// Waiting reads take turns by app: when a read ends, the next to start is the oldest of the
/// app whose turn it is, so one app's queue cannot hold back another's. A read not finished
/// ``Limits/deadline`` after it arrived is cancelled and its caller gets ``Overloaded``
/// (the API answers 503 with `Retry-After`); its slot is freed when its work stops. Ingest
/// and `/healthz` never pass through here.
///
/// ```swift
/// let reads = ReadAdmission()
/// let funnel = try await reads.run(ReadAdmission.Reader(app: 7, holder: .token(app: 7))) {
///     try await store.metrics.funnel(steps, in: scope)
/// }
/// ```
public final class ReadAdmission: Sendable {
    /// The bounds.
    public struct Limits: Sendable, Hashable {
        /// The most reads running at once, in all.
        public var running: Int
        /// The most reads of one reader running at once.
        public var runningPerReader: Int
        /// The most reads of one reader waiting to run; one more is refused at once.
        public var waitingPerReader: Int
        /// How long a read may take from its arrival, waiting included.
        public var deadline: Duration

        /// `running` reads at once (by default half the cores, at least one), 2 per reader
        /// with 8 more waiting, each within `deadline` (10 s).
        public init(
            running: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2), runningPerReader: Int = 2,
            waitingPerReader: Int = 8, deadline: Duration = .seconds(10)
        ) {
            self.running = running
            self.runningPerReader = runningPerReader
            self.waitingPerReader = waitingPerReader
            self.deadline = deadline
        }
    }

    /// Who reads, and which app: the app is the unit of fairness, the holder the unit of
    /// the per-reader bounds.
    public struct Reader: Hashable, Sendable {
        /// Whose reads these are.
        public enum Holder: Hashable, Sendable {
            /// An app's read and write tokens (`/v1` routes), by the app's id.
            case token(app: Int64)
            /// A dashboard user, by id.
            case user(Int64)
            /// The live updates of the open dashboards.
            case liveUpdates
        }

        /// The id of the app read.
        public var app: Int64
        /// Whose read it is.
        public var holder: Holder

        /// A read of `app` by `holder`.
        public init(app: Int64, holder: Holder) {
            self.app = app
            self.holder = holder
        }
    }

    /// A read refused, or cancelled at its deadline: the server is busy with other reads.
    public struct Overloaded: Error, CustomStringConvertible {
        /// Seconds to wait before trying again.
        public var retryAfter: Int
        public var description: String { "the server is busy with other reads; try again in \(retryAfter) s" }
    }

    /// The bounds in force.
    public let limits: Limits
    private let state: Locked<State>

    /// Admission under `limits`; a bound below 1 counts as 1 (0 as a deadline: none can run).
    public init(limits: Limits = Limits()) {
        var limits = limits
        limits.running = max(1, limits.running)
        limits.runningPerReader = max(1, limits.runningPerReader)
        limits.waitingPerReader = max(0, limits.waitingPerReader)
        self.limits = limits
        state = Locked(State())
    }

    /// How long a refused caller should wait: the deadline, in whole seconds, at least 1.
    var retryAfter: Int {
        let (seconds, attoseconds) = limits.deadline.components
        return Int(max(1, min(3_600, seconds + (attoseconds > 0 ? 1 : 0))))
    }

    /// Runs `body` as a read of `reader` once admitted, and returns what it returns.
    ///
    /// - Throws: ``Overloaded`` when `reader` already has ``Limits/waitingPerReader`` reads
    ///   waiting, or when ``Limits/deadline`` passes first (then `body`'s task is cancelled);
    ///   `CancellationError` when the calling task is cancelled while waiting; what `body`
    ///   throws.
    public func run<T: Sendable>(_ reader: Reader, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + limits.deadline
        try await admit(reader, until: deadline)
        let work = Task {
            defer { finish(reader) }
            return try await body()
        }
        let retryAfter = retryAfter
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // The first of the work's end and the deadline answers; the work's slot stays
                // taken until it ends.
                let answer = FirstAnswer(continuation)
                let timer = Task {
                    try await Task.sleep(until: deadline)
                    work.cancel()
                    answer.resume(with: .failure(Overloaded(retryAfter: retryAfter)))
                }
                Task {
                    let result = await work.result
                    timer.cancel()
                    answer.resume(with: result)
                }
            }
        } onCancel: {
            work.cancel()
        }
    }

    /// A continuation resumed by the first of several callers; the others change nothing.
    private final class FirstAnswer<T: Sendable>: Sendable {
        private let continuation: Locked<CheckedContinuation<T, any Error>?>

        init(_ continuation: CheckedContinuation<T, any Error>) {
            self.continuation = Locked(continuation)
        }

        func resume(with result: Result<T, any Error>) {
            continuation.withLock { $0.take() }?.resume(with: result)
        }
    }

    /// What is running and waiting now: for tests of the bounds.
    var counts: (running: Int, waiting: Int, readers: Int, apps: Int) {
        state.withLock { ($0.running, $0.waiting, $0.perHolder.count, $0.queues.count) }
    }

    /// How many reads have started since the admission was made: for tests of the callers.
    var started: Int { state.withLock(\.started) }

    /// Returns once `reader` may run (counted as running), or throws.
    private func admit(_ reader: Reader, until deadline: ContinuousClock.Instant) async throws {
        let ticket = state.withLock { state -> Ticket in
            if state.waiting == 0, state.canStart(reader.holder, limits: limits) {
                state.start(reader.holder)
                return .admitted
            }
            guard state.perHolder[reader.holder, default: .init()].waiting < limits.waitingPerReader else { return .refused }
            state.nextWaiter += 1
            return .waiting(state.nextWaiter)
        }
        let id: UInt64
        switch ticket {
        case .admitted: return
        case .refused: throw Overloaded(retryAfter: retryAfter)
        case .waiting(let number): id = number
        }
        let timer = Task { [weak self] in
            try await Task.sleep(until: deadline)
            self?.leave(id, reader: reader, with: Overloaded(retryAfter: self?.retryAfter ?? 1))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Queued, then started at once if a slot is free and no other app's turn
                // comes first (reads blocked by their own reader's bound do not hold it up).
                let started = state.withLock { state -> [Waiter]? in
                    guard !Task.isCancelled else { return nil }
                    state.enqueue(Waiter(id: id, holder: reader.holder, continuation: continuation), app: reader.app)
                    return state.startWaiting(limits: limits)
                }
                guard let started else { return continuation.resume(throwing: CancellationError()) }
                for waiter in started { waiter.continuation.resume() }
            }
        } onCancel: {
            leave(id, reader: reader, with: CancellationError())
        }
    }

    /// Takes the waiter `id` out of its queue, if it still waits, and resumes it with `error`.
    private func leave(_ id: UInt64, reader: Reader, with error: any Error) {
        state.withLock { $0.remove(id, app: reader.app) }?.continuation.resume(throwing: error)
    }

    /// Ends a read of `reader` and starts the waiting reads that may start now.
    private func finish(_ reader: Reader) {
        let started = state.withLock { state -> [Waiter] in
            state.end(reader.holder)
            return state.startWaiting(limits: limits)
        }
        for waiter in started { waiter.continuation.resume() }
    }

    private enum Ticket {
        case admitted, refused
        case waiting(UInt64)
    }

    private struct Waiter {
        let id: UInt64
        let holder: Reader.Holder
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What one holder has running and waiting.
    private struct HolderCounts {
        var running = 0
        var waiting = 0
    }

    private struct State {
        var running = 0
        var waiting = 0
        var started = 0
        var nextWaiter: UInt64 = 0
        /// Holders with a read running or waiting; dropped when they have none.
        var perHolder: [Reader.Holder: HolderCounts] = [:]
        /// The waiting reads of each app, oldest first, the apps in turn order: the first
        /// app's oldest read that may start goes next, and its app then goes last.
        var queues: [(app: Int64, waiters: [Waiter])] = []

        func canStart(_ holder: Reader.Holder, limits: Limits) -> Bool {
            running < limits.running && perHolder[holder, default: .init()].running < limits.runningPerReader
        }

        mutating func start(_ holder: Reader.Holder) {
            running += 1
            started += 1
            perHolder[holder, default: .init()].running += 1
        }

        mutating func end(_ holder: Reader.Holder) {
            running -= 1
            perHolder[holder]?.running -= 1
            dropIfIdle(holder)
        }

        mutating func enqueue(_ waiter: Waiter, app: Int64) {
            waiting += 1
            perHolder[waiter.holder, default: .init()].waiting += 1
            if let index = queues.firstIndex(where: { $0.app == app }) {
                queues[index].waiters.append(waiter)
            } else {
                queues.append((app, [waiter]))
            }
        }

        mutating func remove(_ id: UInt64, app: Int64) -> Waiter? {
            guard let index = queues.firstIndex(where: { $0.app == app }),
                let position = queues[index].waiters.firstIndex(where: { $0.id == id })
            else { return nil }
            return take(position, ofQueue: index)
        }

        /// Takes the waiter at `position` of the queue at `index` out, counted as waiting no more.
        private mutating func take(_ position: Int, ofQueue index: Int) -> Waiter {
            let waiter = queues[index].waiters.remove(at: position)
            if queues[index].waiters.isEmpty { queues.remove(at: index) }
            waiting -= 1
            perHolder[waiter.holder]?.waiting -= 1
            dropIfIdle(waiter.holder)
            return waiter
        }

        /// Starts waiting reads, app after app in turn order, while slots are free.
        mutating func startWaiting(limits: Limits) -> [Waiter] {
            var started: [Waiter] = []
            var index = 0
            while running < limits.running, index < queues.count {
                guard let position = queues[index].waiters.firstIndex(where: { canStart($0.holder, limits: limits) }) else {
                    index += 1
                    continue
                }
                let app = queues[index].app
                let waiter = take(position, ofQueue: index)
                start(waiter.holder)
                started.append(waiter)
                // The app served goes last; the app now at `index` is the next one's turn.
                if let rest = queues.firstIndex(where: { $0.app == app }) { queues.append(queues.remove(at: rest)) }
            }
            return started
        }

        private mutating func dropIfIdle(_ holder: Reader.Holder) {
            if let counts = perHolder[holder], counts.running <= 0, counts.waiting <= 0 { perHolder[holder] = nil }
        }
    }
}
