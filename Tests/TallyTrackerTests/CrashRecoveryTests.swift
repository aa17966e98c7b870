import Foundation
import Locking
import Testing

@testable import TallyTracker

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Crash recovery")
struct CrashRecoveryTests {
    @Test("Events tracked over a second before SIGKILL are delivered exactly once after restart")
    func survivesSigkill() async throws {
        let probe = try #require(Self.trackerProbe(), "TrackerProbe fixture not built")
        try await withTemporaryDirectory { directory in
            let count = 300
            let process = Process()
            process.executableURL = probe
            process.arguments = [directory.path, String(count)]
            let output = Pipe()
            process.standardOutput = output
            let printed = Locked(Data())
            output.fileHandleForReading.readabilityHandler = { handle in
                let chunk = handle.availableData
                printed.withLock { $0.append(chunk) }
            }
            try process.run()
            func printedIDs() -> [String] {
                printed.withLock { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").map { $0.lowercased() }
            }
            await waitUntil { printedIDs().count == count || !process.isRunning }
            try #require(process.isRunning, "probe exited early")
            try await Task.sleep(seconds: 1.2)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
            #expect(process.terminationReason == .uncaughtSignal)

            let ids = printedIDs()
            try #require(ids.count == count)
            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            let report = await tracker.flush()
            #expect(report.sent == count)
            #expect(transport.deliveredIDs == ids)
        }
    }

    /// The built TrackerProbe: beside the running test binary, or in this package's `.build`.
    private static func trackerProbe() -> URL? {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(), package.appendingPathComponent(".build/debug")]
        return candidates.compactMap { $0?.appendingPathComponent("TrackerProbe") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
