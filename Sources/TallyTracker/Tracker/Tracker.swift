public import Foundation

// The event's types (`PropertyValue`, `Event`, `DropReason`) are the SDK's API: an app that
// imports TallyTracker names them without importing TallyEvent.
@_exported public import TallyEvent

/// Records analytics events and delivers them to a Tally server.
///
/// Create one tracker per storage directory, early, and share it:
///
/// ```swift
/// let tracker = try Tracker(configuration: .init(endpoint: url, appKey: "…", storageDirectory: dir))
/// tracker.identify("user-42")
/// tracker.track("bill_created", ["amount": 12.5])
/// tracker.screen("Home")
/// let report = await tracker.flush()   // report.sent, report.retried, report.dropped
/// ```
///
/// ## Guarantees
/// - ``track(_:_:)`` only stamps the event and appends it to a memory buffer; disk and
///   network work happen on background tasks.
/// - A background writer persists the buffer every 200 ms, so an event survives the
///   process being killed from about a fifth of a second after it was tracked, and
///   always once ``flush()`` returned.
/// - Every event carries an id from the moment it is tracked, and the server drops
///   duplicates, so retries after failures or restarts never double-count.
/// - Network errors, 401 and 5xx never lose events: they are retried with jittered
///   exponential backoff (1 s to 5 min, or the server's `Retry-After`). Events are dropped
///   only by the caps, `beforeSend`, or the server's explicit verdict, and every drop is
///   counted in ``FlushReport``.
///
/// All methods are safe to call from any thread or task.
public final class Tracker: Sendable {
    /// The anonymous id of this installation, generated once and kept in the storage
    /// directory. It is the events' `user_id` until ``identify(_:)`` is called.
    public let anonymousID: String

    private let storage: StorageDirectory
    private let recorder: Recorder
    private let pipeline: Pipeline
    private let workers: [Task<Void, Never>]

    /// Creates a tracker, reloading events queued by earlier runs, and starts its background work.
    ///
    /// - Throws: When the storage directory cannot be created or written.
    public init(configuration: Configuration) throws {
        storage = StorageDirectory(url: configuration.storageDirectory)
        try storage.prepare()
        anonymousID = try storage.deviceID()
        let statistics = Statistics()
        recorder = Recorder(
            configuration: configuration, userID: anonymousID, isOptedOut: storage.isOptedOut, statistics: statistics
        )
        let queue = try DiskQueue(
            folder: storage.segments, cursorFile: storage.cursor, maxBytes: configuration.maxQueueBytes,
            maxAge: configuration.maxEventAge.timeInterval, statistics: statistics, now: configuration.now()
        )
        let pipeline = Pipeline(configuration: configuration, recorder: recorder, queue: queue, statistics: statistics)
        self.pipeline = pipeline
        workers = [
            Task.detached(priority: .utility) { await pipeline.runWriter() },
            Task.detached(priority: .utility) { await pipeline.uploader.run() },
        ]
    }

    deinit {
        pipeline.persist()
        workers.forEach { $0.cancel() }
        pipeline.uploader.stop()
    }

    /// Records an event named `name` with `properties`, plus the super-properties.
    ///
    /// Returns at once: the event is stamped (id, time, user, session) and buffered; the
    /// rest happens in the background. Nothing is recorded while opted out. A name that
    /// is empty or longer than 100 characters is not recorded either, and is counted as
    /// ``DropReason/invalidName``.
    ///
    /// - Returns: The event's id, or `nil` if it was not recorded.
    @discardableResult
    public func track(_ name: String, _ properties: [String: PropertyValue] = [:]) -> UUID? {
        recorder.record(name, properties)
    }

    /// Records that the screen `name` was shown: a `screen_view` event with the property
    /// `screen` set to `name`, plus `properties`.
    @discardableResult
    public func screen(_ name: String, _ properties: [String: PropertyValue] = [:]) -> UUID? {
        recorder.record("screen_view", properties.merging(["screen": .string(name)]) { _, screen in screen })
    }

    /// Attributes events tracked from now on to `userID` instead of ``anonymousID``.
    ///
    /// Not remembered across launches: call it at startup once the signed-in user is known.
    /// An empty id is ignored, as the server requires a non-empty `user_id`.
    public func identify(_ userID: String) {
        guard !userID.isEmpty else { return }
        recorder.identify(userID)
    }

    /// Adds super-properties: key-value pairs attached to every event tracked from now on.
    /// A property passed to ``track(_:_:)`` wins over a super-property with the same key.
    public func register(_ properties: [String: PropertyValue]) {
        recorder.register(properties)
    }

    /// Removes the super-property `key`.
    public func unregister(_ key: String) {
        recorder.unregister(key)
    }

    /// Whether the user opted out of tracking. Remembered across launches.
    public var isOptedOut: Bool { recorder.isOptedOut }

    /// Stops recording events, now and in later launches, until ``optIn()``.
    ///
    /// Events recorded before opting out are still delivered.
    public func optOut() {
        storage.isOptedOut = true
        recorder.isOptedOut = true
    }

    /// Resumes recording events after ``optOut()``.
    public func optIn() {
        storage.isOptedOut = false
        recorder.isOptedOut = false
    }

    /// Writes every tracked event to disk, uploads as much of the queue as the server
    /// takes, and reports what happened since the previous flush.
    ///
    /// When it returns, every event tracked before the call is on disk. Uploads stop at
    /// the first retryable failure; those events stay queued and are retried in the
    /// background with backoff. While such a retry is scheduled, `flush` does not upload
    /// at all, so it never hammers a server that asked for a pause. Call it when the app
    /// moves to the background, or before exit.
    public func flush() async -> FlushReport {
        await pipeline.flush()
    }
}
