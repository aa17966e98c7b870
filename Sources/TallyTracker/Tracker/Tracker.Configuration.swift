public import Foundation
import TallyEvent

extension Tracker {
    /// Everything a ``Tracker`` needs: where to send, where to store, and how to behave.
    ///
    /// Only the endpoint, the app key and the storage directory are required; every other
    /// setting has a production default. The clock, sleeper and random source exist so
    /// tests can drive sessions and backoff without waiting.
    public struct Configuration: Sendable {
        /// The server's base URL; uploads go to `{endpoint}/v1/events`.
        public var endpoint: URL
        /// The ingest key, sent as `X-App-Key`.
        public var appKey: String
        /// A directory the tracker owns: the anonymous device id, the opt-out flag and the
        /// event queue live here. Created if missing. Use one tracker per directory at a time.
        public var storageDirectory: URL
        /// Sent as `app_version`. Defaults to the bundle's `CFBundleShortVersionString`, or `"unknown"`.
        public var appVersion: String
        /// Sent as `platform`. Defaults to the operating system: `ios`, `macos`, `linux`, ….
        public var platform: String
        /// The most events per upload. Reaching it also triggers an upload. Default 100.
        public var batchSize = 100
        /// The longest time queued events wait before an upload is attempted. Default 30 s.
        public var uploadInterval: Duration = .seconds(30)
        /// The most bytes of events kept queued; beyond it the oldest are dropped
        /// (``DropReason/cappedBytes``). Default 4 MiB.
        public var maxQueueBytes = 4 << 20
        /// The longest an event may wait for delivery before it is dropped
        /// (``DropReason/tooOld``). Default 7 days.
        public var maxEventAge: Duration = .seconds(7 * 24 * 3600)
        /// Idle time after which the next event starts a new session. Default 30 minutes.
        public var sessionTimeout: Duration = .seconds(30 * 60)
        /// Whether upload bodies are gzip-compressed (`Content-Encoding: gzip`). Default `true`.
        public var compressesUploads = true
        /// Called on a background thread for each event before it is written to disk:
        /// return the event (perhaps with properties or user id redacted), or `nil` to drop
        /// it (``DropReason/droppedByBeforeSend``). Keep it fast and free of side effects.
        public var beforeSend: (@Sendable (Event) -> Event?)?
        /// Sends uploads. Defaults to ``URLSessionTransport``.
        public var transport: any Transport = URLSessionTransport()
        /// The current time, used for event timestamps, sessions and the age cap.
        public var now: @Sendable () -> Date = { Date() }
        /// Waits between upload retries; throws when the wait is cancelled.
        public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        /// A random number in `0...1`, used to jitter backoff delays.
        public var random: @Sendable () -> Double = { Double.random(in: 0...1) }

        /// Creates a configuration with production defaults for everything but the three
        /// required settings.
        public init(endpoint: URL, appKey: String, storageDirectory: URL) {
            self.endpoint = endpoint
            self.appKey = appKey
            self.storageDirectory = storageDirectory
            appVersion = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "unknown"
            platform = Self.currentPlatform
        }

        private static var currentPlatform: String {
            #if os(iOS)
                "ios"
            #elseif os(macOS)
                "macos"
            #elseif os(tvOS)
                "tvos"
            #elseif os(watchOS)
                "watchos"
            #elseif os(visionOS)
                "visionos"
            #elseif os(Linux)
                "linux"
            #elseif os(Windows)
                "windows"
            #else
                "unknown"
            #endif
        }
    }
}
