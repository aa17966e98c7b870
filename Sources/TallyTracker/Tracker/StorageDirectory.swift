import Foundation

/// The files a tracker keeps in ``Tracker/Configuration/storageDirectory``.
struct StorageDirectory: Sendable {
    let url: URL

    /// Holds the queue's segment files.
    var segments: URL { url.appendingPathComponent("segments", isDirectory: true) }
    /// Holds the queue's ``AckCursor``.
    var cursor: URL { url.appendingPathComponent("acknowledged") }
    private var anonymousIDFile: URL { url.appendingPathComponent("device-id") }
    private var optOutMarker: URL { url.appendingPathComponent("opted-out") }
    private var appVersionFile: URL { url.appendingPathComponent("app-version") }

    /// Creates the directory if needed.
    func prepare() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The anonymous id, created and stored on first use; `isNew` when created by this call.
    func anonymousID() throws -> (id: String, isNew: Bool) {
        if let stored = read(anonymousIDFile) { return (stored, false) }
        return (try newAnonymousID(), true)
    }

    /// Replaces the anonymous id with a new random one, and returns it.
    func newAnonymousID() throws -> String {
        let id = UUID().uuidString.lowercased()
        try Data(id.utf8).write(to: anonymousIDFile, options: .atomic)
        return id
    }

    /// The app version the tracker last ran in, if it recorded one.
    var lastAppVersion: String? {
        get { read(appVersionFile) }
        nonmutating set { try? Data((newValue ?? "").utf8).write(to: appVersionFile, options: .atomic) }
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

    private func read(_ file: URL) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8), !text.isEmpty else { return nil }
        return text
    }
}
