import Foundation
import Locking
import Metrics

/// Makes committed transactions durable off the writer: syncs the database's write-ahead log
/// on a thread of its own and acknowledges each commit once a sync that began after it
/// completed.
///
/// ``GroupCommit`` commits its transactions with `PRAGMA synchronous = NORMAL`, which writes
/// the WAL frames but does not wait for the disk, then hands the acknowledgement here. While
/// this thread waits for the disk (≈ 3 ms on the development VM), the writer already
/// stores the next group. Syncs coalesce: one `fsync` covers every commit made before it
/// started, however many are waiting.
///
/// Why this is as durable as `synchronous = FULL`: SQLite's WAL recovery keeps every
/// transaction whose frames, commit frame included, reached the disk with valid checksums.
/// An `fsync` of the WAL file after a commit puts all its frames there, header included.
/// Frames are never overwritten before they are checkpointed, and with `NORMAL` SQLite syncs
/// the WAL before each checkpoint and the database file after it. The first sync also syncs
/// the database's directory, so a newly created WAL file's name is durable too.
final class WALSync: Sendable {
    private struct State {
        var waiting: [@Sendable (Result<Void, any Error>) -> Void] = []
        var syncing = false
    }

    private let walPath: String
    private let state = Locked(State())
    /// The open WAL file, or -1 before the first sync. Used on `queue` only.
    private let file = Locked<Int32>(-1)
    private let queue = DispatchQueue(label: "TallyStore.WALSync")
    /// Each `fsync`'s wait for the disk, reported as ``StoreTelemetry/fsyncSeconds``.
    private let fsyncTimer = Timer(label: StoreTelemetry.fsyncSeconds)

    /// Syncs the WAL of the database at `databasePath`.
    init(databasePath: String) {
        walPath = databasePath + "-wal"
    }

    deinit {
        file.withLock { file in if file >= 0 { close(file) } }
    }

    /// Calls `acknowledge` on the sync thread once every transaction committed before this
    /// call is on disk, with the error instead if the sync failed.
    func afterSync(_ acknowledge: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let starts = state.withLock { state in
            state.waiting.append(acknowledge)
            defer { state.syncing = true }
            return !state.syncing
        }
        if starts { queue.async { self.run() } }
    }

    private func run() {
        while let waiting = state.withLock({ state -> [@Sendable (Result<Void, any Error>) -> Void]? in
            defer { state.waiting = [] }
            state.syncing = !state.waiting.isEmpty
            return state.syncing ? state.waiting : nil
        }) {
            let result = Result { try sync() }
            for acknowledge in waiting { acknowledge(result) }
        }
    }

    private func sync() throws {
        try file.withLock { file in
            if file < 0 {
                file = try Self.open(walPath)
                let directory = try Self.open((walPath as NSString).deletingLastPathComponent)
                defer { close(directory) }
                try Self.sync(directory)
            }
            try fsyncTimer.measure { try Self.sync(file) }
        }
    }

    private static func open(_ path: String) throws -> Int32 {
        let descriptor = Foundation.open(path.isEmpty ? "." : path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }

    private static func sync(_ descriptor: Int32) throws {
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
