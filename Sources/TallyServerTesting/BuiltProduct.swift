public import Foundation

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
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appending(path: "Package.swift").path) {
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                for entry in entries.sorted() where entry.hasPrefix(".build") {
                    candidates.append(folder.appending(path: "\(entry)/debug/\(name)"))
                }
                break
            }
            folder.deleteLastPathComponent()
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
