public import Foundation
import TallyStoreTesting

/// Executables this package builds, for tests that run them as child processes
/// (the `tally` command, crash-test fixtures).
public enum BuiltProduct {
    /// The built executable `name`: next to the running test bundle, or else in a
    /// `.build*` folder of the package that contains `file` (pass `#filePath`).
    public static func url(named name: String, near file: String = #filePath) -> URL? {
        var candidates: [URL] = []
        if let testBinary = Bundle.main.executableURL {
            candidates.append(testBinary.deletingLastPathComponent().appending(path: name))
        }
        if let root = PackageRoot.url(containing: file) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            for entry in entries.sorted() where entry.hasPrefix(".build") {
                candidates.append(root.appending(path: "\(entry)/debug/\(name)"))
            }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
