import Foundation
@_spi(Wire) import TallyEvent

/// The lines of a user's data export other than raw events (see
/// ``UserDataStore/export(app:user:into:)``), keys sorted as `tally export` sorts them.
struct UserDataLine {
    private let app: AppID
    private var output = JSONWriter()

    /// The bytes of the lines written.
    var bytes: [UInt8] { output.bytes }

    init(app: AppID) {
        self.app = app
    }

    /// The user's record.
    mutating func user(_ user: AppUser) {
        start()
        output.raw(#","first_seen":"#)
        output.string(Self.instant(user.firstSeen))
        output.raw(#","record":"user","user_id":"#)
        output.string(user.id)
        output.raw("}\n")
    }

    /// A user property's value.
    mutating func property(_ property: String, value: String) {
        start()
        output.raw(#","property":"#)
        output.string(property)
        output.raw(#","record":"user_property","value":"#)
        output.string(value)
        output.raw("}\n")
    }

    /// How many events the rollups hold and how many of them are kept as raw events.
    mutating func summary(events: Int, rawEvents: Int) {
        start()
        output.raw(#","events":"#)
        output.bytes.append(contentsOf: String(events).utf8)
        output.raw(#","raw_events":"#)
        output.bytes.append(contentsOf: String(rawEvents).utf8)
        output.raw(#","record":"summary"}"#)
        output.raw("\n")
    }

    private mutating func start() {
        output.raw(#"{"app":"#)
        output.bytes.append(contentsOf: String(app.rawValue).utf8)
    }

    private static func instant(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
