import Foundation
import TallyEvent
import Locking

/// The part of the tracker that runs on the caller's thread: it stamps events and buffers
/// them in memory, under one short lock, doing no file or network work.
final class Recorder: Sendable {
    /// A tracked event waiting for the background writer, which merges the super-properties
    /// (captured at track time) and runs `beforeSend` off the caller's thread.
    struct Pending: Sendable {
        var event: Event
        var superProperties: [String: PropertyValue]
    }

    private struct State {
        var userID: String
        var superProperties: [String: PropertyValue] = [:]
        var sessionID: UUID
        var lastActivity: Date
        var isOptedOut: Bool
        var ids: EventIDGenerator
        var buffer: [Pending] = []
    }

    private let state: Locked<State>
    private let now: @Sendable () -> Date
    private let sessionTimeout: TimeInterval
    private let appVersion: String
    private let platform: String
    private let statistics: Statistics

    init(configuration: Tracker.Configuration, userID: String, isOptedOut: Bool, statistics: Statistics) {
        var ids = EventIDGenerator()
        let start = configuration.now()
        state = Locked(
            State(
                userID: userID, sessionID: ids.next(at: start), lastActivity: start, isOptedOut: isOptedOut, ids: ids
            ))
        now = configuration.now
        sessionTimeout = configuration.sessionTimeout.timeInterval
        appVersion = configuration.appVersion
        platform = configuration.platform
        self.statistics = statistics
    }

    /// Buffers an event; `nil` if it was not recorded (opted out, or an invalid name, which is counted).
    func record(_ name: String, _ properties: [String: PropertyValue]) -> UUID? {
        guard Event.isValidName(name) else {
            statistics.recordDropped(1, .invalidName)
            return nil
        }
        let timestamp = now()
        return state.withLock { state in
            guard !state.isOptedOut else { return nil }
            if timestamp.timeIntervalSince(state.lastActivity) >= sessionTimeout {
                state.sessionID = state.ids.next(at: timestamp)
            }
            state.lastActivity = max(state.lastActivity, timestamp)
            let event = Event(
                id: state.ids.next(at: timestamp), name: name, timestamp: timestamp, userID: state.userID,
                sessionID: state.sessionID.uuidString.lowercased(), appVersion: appVersion, platform: platform, properties: properties
            )
            state.buffer.append(Pending(event: event, superProperties: state.superProperties))
            return event.id
        }
    }

    /// Takes every buffered event, oldest first.
    func drain() -> [Pending] {
        state.withLock { state in
            defer { state.buffer = [] }
            return state.buffer
        }
    }

    func identify(_ userID: String) {
        state.withLock { $0.userID = userID }
    }

    func register(_ properties: [String: PropertyValue]) {
        state.withLock { $0.superProperties.merge(properties) { _, new in new } }
    }

    func unregister(_ key: String) {
        state.withLock { $0.superProperties[key] = nil }
    }

    var isOptedOut: Bool {
        get { state.withLock { $0.isOptedOut } }
        set { state.withLock { $0.isOptedOut = newValue } }
    }
}
