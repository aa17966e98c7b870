// Export speed beside `sqlite3 -csv` (Debian's `sqlite3`), in one run, over the same rows of
// the pipeline fixture: Tally's NDJSON and CSV (`EventStore.write`, what `tally export`
// runs) and `sqlite3 -csv` selecting the exported columns, each writing to /dev/null.
//
//     swift run -c release ExportVersusSQLite            # the 6-day fixture, about 1.05M events
//     DAYS=60 swift run -c release ExportVersusSQLite    # the 60-day fixture, about 10.6M
import Foundation
import PipelineWorkload
import TallyStore

let days = ProcessInfo.processInfo.environment["DAYS"].flatMap(Int.init) ?? 6
let (store, app) = try await Fixtures.store(days: days)
let path = Fixtures.path(days: days)
let end = Fixtures.start.addingTimeInterval(Double(days) * 86_400)

/// Seconds `body` takes, the best of three.
func best(_ body: () async throws -> Void) async rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
        best = min(best, try await ContinuousClock().measure(body).seconds)
    }
    return best
}

/// Writes the fixture's events in `format` to /dev/null, as `tally export` writes them to
/// standard output; returns how many it wrote.
func export(_ format: ExportFormat) async throws -> Int {
    let null = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
    return try await store.events.write(app: app, from: Fixtures.start, to: end, as: format) { try null.write(contentsOf: $0) }
}

var rows = 0
var results: [(name: String, seconds: Double)] = []
for format in ExportFormat.allCases {
    let seconds = try await best { rows = try await export(format) }
    results.append(("tally \(format.rawValue)", seconds))
}

let sqlite = try await best {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [
        "-csv", path,
        "SELECT app_id, hex(id), name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties FROM event WHERE app_id = \(app.rawValue) ORDER BY timestamp, rowid",
    ]
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
    try process.run()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "sqlite3 failed")
}
results.append(("sqlite3 -csv", sqlite))

print("\(rows) events, \(days) days; best of 3")
for (name, seconds) in results {
    let rate = Double(rows) / seconds
    print(
        name.padding(toLength: 14, withPad: " ", startingAt: 0),
        String(format: "%7.2f s  %9.0f events/s  %.2fx sqlite3", seconds, rate, sqlite / seconds))
}
