public import Foundation

/// The folder of this package's sources, for tests that read its files or run its scripts
/// and built products.
public enum PackageRoot {
    /// The nearest folder above `file` (pass `#filePath`, the default) that holds a
    /// `Package.swift`, or `nil` when there is none.
    public static func url(containing file: String = #filePath) -> URL? {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appending(path: "Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return nil
    }
}
