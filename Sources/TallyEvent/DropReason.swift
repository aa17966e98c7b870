/// Why an event was dropped instead of delivered. Every drop is counted under one reason
/// in the SDK's flush report.
public enum DropReason: String, Sendable, Hashable, CaseIterable {
    /// The queue grew past the tracker's `maxQueueBytes`; the oldest events went first.
    case cappedBytes = "capped-bytes"
    /// The event waited longer than the tracker's `maxEventAge` without being delivered.
    case tooOld = "too-old"
    /// The server accepted the batch but named this event in `rejected`.
    case rejectedByServer = "rejected-by-server"
    /// The server answered 413 even for a batch holding only this event.
    case payloadTooLarge = "payload-too-large"
    /// The tracker's `beforeSend` returned `nil` for the event.
    case droppedByBeforeSend = "dropped-by-beforeSend"
    /// The event name broke `Event.isValidName(_:)`; it was never queued.
    case invalidName = "invalid-name"
    /// The server answered 400 for the event's batch: the request itself was malformed, so
    /// retrying cannot help and the batch is dropped to keep the queue moving.
    case badRequest = "bad-request"
}
