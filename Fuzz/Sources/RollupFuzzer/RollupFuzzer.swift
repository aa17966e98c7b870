@testable import TallyStore

/// libFuzzer's target over the rollups' own structures: the user sets and bucket logs the
/// store keeps in blobs, and the day logs and day sessions funnels and paths derive from them.
///
/// An input's first byte picks what the rest is:
/// - 0: a stored user set's bytes: refused, or a set whose storage keeps its invariants
///   (``UserSet/_checkInvariants()``) and that serializes back to itself;
/// - 1: events, 8 bytes each (user, milliseconds in the bucket, name, segment key, screen
///   and session, small numbers so that they repeat), spread over up to four buckets of one
///   day: the logs built and merged from them, and the day logs and day sessions derived
///   from those, keep their invariants;
/// - 2: a stored bucket log's blob: refused, or a log from which day logs and day sessions
///   are derived without trapping (a damaged log may hold events out of order, so only
///   memory safety is asked of them).
///
/// A broken invariant traps, and libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let rest = Array(input.dropFirst())
    do {
        switch input[0] % 3 {
        case 0: try RollupFuzzer.checkUserSet(rest)
        case 1: try RollupFuzzer.checkBuiltLogs(rest)
        default: try RollupFuzzer.checkStoredLog(rest)
        }
    } catch {
        preconditionFailure("a valid input threw \(error)")
    }
    return 0
}

enum RollupFuzzer {
    static let day: Int64 = 20_500

    static func checkUserSet(_ bytes: [UInt8]) throws {
        guard let set = try? UserSet(serialized: bytes) else { return }
        set._checkInvariants()
        let again = try UserSet(serialized: set.serialized)
        precondition(again == set, "a set that does not serialize back to itself")
    }

    static func checkBuiltLogs(_ bytes: [UInt8]) throws {
        var logs: [Int64: BucketLog] = [:]
        for start in stride(from: 0, to: bytes.count - 7, by: 8) {
            let field = bytes[start..<start + 8].map(UInt64.init)
            let bucket = day * Bucket.perDay + Int64(field[0] % 4) * 31
            let entry = BucketLog.Entry(
                user: UInt32(field[1] % 32), offset: UInt32((field[2] << 8 | field[3]) * 13 % UInt64(Bucket.milliseconds)),
                name: Int64(field[4] % 6), key: Int64(field[5] % 5), screen: Int64(field[6] % 4),
                session: field[7] % 3 == 0 ? 0 : field[7] &* 0x9E37_79B9_7F4A_7C15)
            // Each event merged into its bucket's log on its own, as commits add them.
            logs[bucket, default: BucketLog()].merge([entry])
        }
        var derived: [(bucket: Int64, log: BucketLogCache.Log)] = []
        for (revision, bucket) in logs.keys.sorted().enumerated() {
            let log = logs[bucket]!
            log._checkInvariants()
            let encoded = log.encoded
            let decoded = try encoded.withUnsafeBytes { try BucketLog(encoded: $0) }
            precondition(decoded == log, "a log that does not decode to itself")
            derived.append((bucket, try encoded.withUnsafeBytes { try BucketLogCache.Log(revision: Int64(revision), bytes: $0) }))
        }
        for name in Set(logs.values.flatMap { $0.entries.map(\.name) }) {
            try DayLog(name: name, day: day, logs: derived)._checkInvariants()
        }
        try DaySessions(day: day, logs: derived)._checkInvariants()
    }

    static func checkStoredLog(_ bytes: [UInt8]) throws {
        guard let log = try? bytes.withUnsafeBytes({ try BucketLogCache.Log(revision: 1, bytes: $0) }) else { return }
        let logs = [(bucket: day * Bucket.perDay, log: log)]
        for section in log.view.sections { _ = try? DayLog(name: section.name, day: day, logs: logs) }
        _ = try? DaySessions(day: day, logs: logs)
    }
}
