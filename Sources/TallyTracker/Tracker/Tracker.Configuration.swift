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
        /// A directory the tracker owns: the anonymous id, the opt-out flag, the last app version
        /// seen and the event queue live here. Created if missing. Use one tracker per directory
        /// at a time.
        public var storageDirectory: URL
        /// Sent as `app_version`. Defaults to the bundle's `CFBundleShortVersionString`, or `"unknown"`.
        public var appVersion: String
        /// Sent as `platform`. Defaults to the operating system: `ios`, `macos`, `linux`, ….
        public var platform: String
        /// The most events per upload. Reaching it also triggers an upload. Default 100.
        public var batchSize = 100
        /// The longest time in seconds queued events wait before an upload is attempted. Default 30.
        public var uploadInterval: TimeInterval = 30
        /// The most bytes of events kept queued; beyond it the oldest are dropped
        /// (``DropReason/cappedBytes``). Default 4 MiB.
        public var maxQueueBytes = 4 << 20
        /// The longest time in seconds an event may wait for delivery before it is dropped
        /// (``DropReason/tooOld``). Default 7 days.
        public var maxEventAge: TimeInterval = 7 * 24 * 3600
        /// Seconds after which a new session starts: when the app comes back after this long
        /// in the background, or tracks an event after this long without one. Default 30 minutes.
        public var sessionTimeout: TimeInterval = 30 * 60
        /// Whether the tracker records the app's lifecycle: `app_installed` on the first launch,
        /// `app_updated` (with `previous_version`) on the first launch of a new ``appVersion``,
        /// and `app_opened` and `app_backgrounded` as the app comes to the foreground and leaves
        /// it. Default `true`.
        public var tracksAppLifecycle = true
        /// Where the app's lifecycle notifications are observed. Default `.default`.
        public var notificationCenter: NotificationCenter = .default
        /// Marks every event as sent by a debug build (``Event/isDebug``, `"debug": true` on the
        /// wire): the collector keeps such events apart from the app's production events.
        /// Default `true` when the SDK is compiled with `DEBUG` (an app's Debug configuration),
        /// else `false`.
        public var isDebug = Self.isDebugBuild
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
        /// Waits the given seconds between upload retries; throws when the wait is cancelled.
        public var sleep: @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(seconds: $0) }
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

        private static var isDebugBuild: Bool {
            #if DEBUG
                true
            #else
                false
            #endif
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
