// Test fixture for the crash-safety test in TallyTrackerTests.
//
//     TrackerProbe <storage-directory> <count>
//
// Tracks <count> events into a tracker stored in <storage-directory>, printing each
// event's id on its own line as soon as `track` returns, then sleeps until killed. Uploads
// always fail, so every event stays queued on disk for the next tracker to find.
import Foundation
import TallyTracker

struct OfflineTransport: Transport {
    func send(_ request: UploadRequest) async throws -> UploadResponse {
        throw URLError(.notConnectedToInternet)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: TrackerProbe <storage-directory> <count>\n".utf8))
    exit(64)
}
var configuration = Tracker.Configuration(
    endpoint: URL(string: "http://127.0.0.1:9")!,
    appKey: "probe",
    storageDirectory: URL(fileURLWithPath: arguments[1], isDirectory: true)
)
configuration.transport = OfflineTransport()
configuration.tracksAppLifecycle = false
let tracker = try Tracker(configuration: configuration)
for index in 0..<count {
    guard let id = tracker.track("probe_event", ["index": .int(index)]) else { exit(1) }
    FileHandle.standardOutput.write(Data("\(id.uuidString)\n".utf8))
}
Thread.sleep(forTimeInterval: 3600)
