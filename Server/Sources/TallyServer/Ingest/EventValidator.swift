import Foundation
@_spi(Wire) import TallyEvent

/// Turns one element of an ingest batch into an ``Event`` to store, or says why not: the
/// event's own rules (``Event/init(wire:)``), then its timestamp corrected for the device's
/// clock skew, measured from the batch's `sent_at`, which must lie within the app's accepted
/// age and at most ``maximumFuture`` ahead.
struct EventValidator {
    /// When the batch arrived, by the server's clock.
    let receivedAt: Date
    /// The server's clock minus the device's, at sending time.
    let skew: TimeInterval
    /// How old a corrected timestamp may be.
    let maximumAge: TimeInterval
    /// How far ahead of the server's clock a corrected timestamp may be.
    let maximumFuture: TimeInterval

    func validate(_ json: JSONValue) throws(EventRejection) -> Event {
        var event = try Event(wire: json)
        event.timestamp = event.deviceTimestamp.addingTimeInterval(skew)
        if event.timestamp < receivedAt.addingTimeInterval(-maximumAge) {
            throw EventRejection(.tooOld, "timestamp is older than the accepted age of \((maximumAge / 86_400).formatted()) days")
        }
        if event.timestamp > receivedAt.addingTimeInterval(maximumFuture) {
            throw EventRejection(.inFuture, "timestamp is more than \((maximumFuture / 60).formatted()) minutes in the future")
        }
        return event
    }
}
