import Foundation

/// The files a tracker keeps in ``Tracker/Configuration/storageDirectory``.
struct StorageDirectory: Sendable {
    let url: URL

    /// Holds the queue's segment files.
    var segments: URL { url.appending(path: "segments", directoryHint: .isDirectory) }
    /// Holds the queue's ``AckCursor``.
    var cursor: URL { url.appending(path: "acknowledged") }
    private var deviceIDFile: URL { url.appending(path: "device-id") }
    private var optOutMarker: URL { url.appending(path: "opted-out") }

    /// Creates the directory if needed.
    func prepare() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The anonymous device id, created and stored on first use.
    func deviceID() throws -> String {
        if let stored = try? String(contentsOf: deviceIDFile, encoding: .utf8), !stored.isEmpty {
            return stored
        }
        let id = UUID().uuidString.lowercased()
        try Data(id.utf8).write(to: deviceIDFile, options: .atomic)
        return id
    }

    /// Whether the user opted out; remembered across launches by a marker file.
    var isOptedOut: Bool {
        get { FileManager.default.fileExists(atPath: optOutMarker.path) }
        nonmutating set {
            if newValue {
                _ = FileManager.default.createFile(atPath: optOutMarker.path, contents: nil)
            } else {
                try? FileManager.default.removeItem(at: optOutMarker)
            }
        }
    }
}
