import Foundation
import TallyServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The child processes tests start: what a test waits on ends, and a child holds none of the
/// test process's descriptors.
@Suite("child processes")
struct ChildProcessTests {
    @Test(.timeLimit(.minutes(1)))
    func aRunEndsWithItsChildThoughAGrandchildHoldsItsOutput() async throws {
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "echo out; echo err >&2; sleep 30 & exit 3"])
        #expect(outcome.status == 3)
        #expect(outcome.text == "out\n")
        #expect(outcome.errors == "err\n")
    }

    /// The test process holds thousands of descriptors while the store tests run beside this
    /// one (2,871 measured): a child starts among them and inherits none.
    @Test func aChildStartsAmongThousandsOfDescriptorsAndInheritsNone() async throws {
        let held = (0..<1_500).map { _ in open("/dev/null", O_RDONLY) }
        defer { for descriptor in held { close(descriptor) } }
        #expect(held.allSatisfy { $0 >= 0 })
        for _ in 0..<20 {
            let outcome = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ls /proc/self/fd | wc -l"])
            #expect(outcome.status == 0)
            // Standard input, output and error, and the listing's own descriptor.
            #expect((Int(outcome.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max) <= 5, "\(outcome.text)")
        }
    }

    @Test func aChildsSignalledEndIsItsStatus() async throws {
        let child = try await ChildProcess(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "echo ready; exec sleep 300"])
        #expect(try await child.firstLine { $0 == "ready" ? $0 : nil } == "ready")
        #expect(child.isRunning)
        child.send(SIGTERM)
        #expect(try await child.exitStatus(within: .seconds(30)) == 128 + SIGTERM)
        #expect(!child.isRunning)
    }
}
