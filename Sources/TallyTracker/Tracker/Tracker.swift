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
    private let storage: StorageDirectory
    private let recorder: Recorder
    private let pipeline: Pipeline
    private let workers: [Task<Void, Never>]
    private let lifecycle: LifecycleObserver?

    /// Creates a tracker, reloading events queued by earlier runs, and starts its background work.
    ///
    /// With ``Configuration/tracksAppLifecycle`` on, it records `app_installed` or `app_updated`
    /// now if this is the first launch of the app or of its version, and observes the app
    /// coming to the foreground and leaving it until it is released: create it at launch.
    ///
    /// - Throws: When the storage directory cannot be created or written.
    public init(configuration: Configuration) throws {
        storage = StorageDirectory(url: configuration.storageDirectory)
        try storage.prepare()
        let anonymous = try storage.anonymousID()
        let statistics = Statistics()
        recorder = Recorder(
            configuration: configuration, anonymousID: anonymous.id, isOptedOut: storage.isOptedOut, statistics: statistics
        )
        let queue = try DiskQueue(
            folder: storage.segments, cursorFile: storage.cursor, maxBytes: configuration.maxQueueBytes,
            maxAge: configuration.maxEventAge, statistics: statistics, now: configuration.now()
        )
        let pipeline = Pipeline(configuration: configuration, recorder: recorder, queue: queue, statistics: statistics)
        self.pipeline = pipeline
        workers = [
            Task.detached(priority: .utility) { await pipeline.runWriter() },
            Task.detached(priority: .utility) { await pipeline.uploader.run() },
        ]
        guard configuration.tracksAppLifecycle else {
            lifecycle = nil
            return
        }
        lifecycle = LifecycleObserver(center: configuration.notificationCenter, recorder: recorder, pipeline: pipeline)
        recordInstallOrUpdate(of: configuration.appVersion, isNewInstall: anonymous.isNew)
    }

    deinit {
        pipeline.persist()
        workers.forEach { $0.cancel() }
        pipeline.uploader.stop()
    }

    /// The random id of this installation, kept in the storage directory: the events' `user_id`
    /// until ``identify(_:properties:)`` is called. ``reset()`` replaces it.
    public var anonymousID: String { recorder.anonymousID }

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

    /// Attributes events tracked from now on to `userID` instead of ``anonymousID``, and with
    /// `properties`, sets the user's properties on the server.
    ///
    /// Not remembered across launches: call it at startup once the signed-in user is known.
    /// An empty id is ignored, properties and all, as the server requires a non-empty `user_id`.
    ///
    /// With `properties`, it also records an event named `identify`, of `userID`, carrying
    /// them: the server keeps each user's latest value of the properties an app names as its
    /// user properties, which the metrics' filters and funnels can then segment by (a user in
    /// `plan==pro` from this event on, for example). That event carries `properties` alone,
    /// without the super-properties of ``register(_:)``, so that it sets only what is passed
    /// here; like any event, it is not recorded while opted out, and it counts among the
    /// app's events. Without properties nothing is recorded.
    ///
    /// ```swift
    /// tracker.identify("user-42", properties: ["plan": "pro", "seats": 5])
    /// ```
    public func identify(_ userID: String, properties: [String: PropertyValue] = [:]) {
        guard !userID.isEmpty else { return }
        recorder.identify(userID, properties: properties)
    }

    /// Forgets the user, for a logout: a new ``anonymousID`` (kept for later launches) becomes
    /// the events' user, the super-properties are removed, and a new session starts.
    public func reset() {
        recorder.reset(anonymousID: (try? storage.newAnonymousID()) ?? UUID().uuidString.lowercased())
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

    /// Stops tracking, now and in later launches, until ``optIn()``: deletes the events not yet
    /// sent, and records, stores and sends none while opted out.
    ///
    /// An upload already on its way when this is called may still arrive.
    public func optOut() {
        storage.isOptedOut = true
        recorder.isOptedOut = true
        pipeline.discardAll()
    }

    /// Resumes tracking after ``optOut()``.
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
    /// at all, so it never hammers a server that asked for a pause. The tracker uploads on
    /// its own when the app leaves the foreground (with ``Configuration/tracksAppLifecycle``);
    /// call it before a command-line program exits.
    public func flush() async -> FlushReport {
        await pipeline.flush()
    }

    /// Records `app_installed` on the first launch with a new storage directory, or
    /// `app_updated` on the first launch of a new app version, and remembers the version.
    private func recordInstallOrUpdate(of version: String, isNewInstall: Bool) {
        let previous = storage.lastAppVersion
        guard previous != version, !recorder.isOptedOut else { return }
        if let previous {
            _ = recorder.record("app_updated", ["previous_version": .string(previous)])
        } else if isNewInstall {
            // An install that ran an SDK version without lifecycle events is not new.
            _ = recorder.record("app_installed", [:])
        }
        storage.lastAppVersion = version
    }
}
