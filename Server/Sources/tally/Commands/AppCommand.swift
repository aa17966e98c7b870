import ArgumentParser
import Foundation
import TallyStore

/// `tally app …`: manage apps.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Manage apps.",
        subcommands: [Create.self, Update.self, RotateKeys.self]
    )

    /// `tally app create NAME [--tz Area/City] [--owner USER]`: registers an app and prints its keys.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an app and print its ingest key and read token (shown only once)."
        )

        @Argument(help: "The app's display name.")
        var name: String

        @Option(help: "The IANA time zone whose days the metrics use by default.")
        var tz = "UTC"

        @Option(help: "How many days old an event may be and still be accepted.")
        var maxEventAgeDays = App.defaultAcceptedEventAge / 86_400

        @Option(help: "A dashboard user to make the app's owner (only users with a role in an app see it).")
        var owner: String?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            // The owner is looked up first: an unknown name creates no app.
            var user: DashboardUser?
            if let owner { user = try await store.accounts.dashboardUser(named: owner) }
            let created = try await store.apps.create(name: name, timeZone: tz, acceptedEventAge: maxEventAgeDays * 86_400)
            if let user { try await store.members.setRole(.owner, of: user.id, in: created.app.id) }
            say(try KeysOutput(created).json)
            if user == nil {
                note("no dashboard user sees app \(created.app.id.rawValue) yet: tally user grant NAME \(created.app.id.rawValue) owner")
            }
        }
    }
}

extension AppCommand {
    /// `tally app update ID [--tz Area/City] [--max-event-age-days N] [--raw-retention-days N|forever]
    /// [--segment-event-property NAME]… [--segment-user-property NAME]… [--clear-segment-properties]
    /// [--purchase-event NAME]`: changes an app's settings; a running server sees them within a second.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change an app's time zone, accepted event age, raw event retention, segment properties or purchase event.",
            discussion: """
                Segment properties are the properties, beside app_version and platform, that the \
                metrics' filters= and funnels filter and break down by: event properties (an event's \
                own value) and user properties (each user's latest value, set by identify). Each \
                of --segment-event-property and --segment-user-property replaces its list when \
                given; --clear-segment-properties empties both first. Changing them rebuilds the \
                segment index from the stored raw events, in one transaction during which ingest \
                waits; it is refused once the app's raw events were pruned, since the rebuild \
                would lose the segments of the deleted period. The purchase event (purchase by \
                default) is the event whose revenue and currency properties the revenue metrics \
                count; a new name applies to the events stored from then on.

                --raw-retention-days N keeps the raw events of the last N whole UTC days (at \
                least a day more than the accepted event age): `tally serve` deletes older ones \
                at start and hourly. Metrics, retention, funnels, paths and segments are kept \
                whole; exports, user timelines and property breakdowns cover the kept days and \
                say so. --raw-retention-days forever (the default) stops pruning; deleted events \
                stay deleted.
                """
        )

        @Argument(help: "The app's id.")
        var id: Int64

        @Option(help: "The IANA time zone whose days the metrics use by default.")
        var tz: String?

        @Option(help: "How many days old an event may be and still be accepted.")
        var maxEventAgeDays: Double?

        @Option(help: ArgumentHelp("How many whole UTC days of raw events to keep, or forever.", valueName: "days|forever"))
        var rawRetentionDays: RawRetention?

        @Option(
            name: .customLong("segment-event-property"),
            help: ArgumentHelp(
                "An event property that filters and funnels may name (repeatable, at most \(SegmentProperties.maximumEventProperties)); replaces the list.",
                valueName: "name"))
        var segmentEventProperties: [String] = []

        @Option(
            name: .customLong("segment-user-property"),
            help: ArgumentHelp(
                "A user property that filters and funnels may name (repeatable, at most \(SegmentProperties.maximumUserProperties)); replaces the list.",
                valueName: "name"))
        var segmentUserProperties: [String] = []

        @Flag(help: "Remove every segment property (before adding those given).")
        var clearSegmentProperties = false

        @Option(help: ArgumentHelp("The event whose revenue and currency properties count as a purchase.", valueName: "name"))
        var purchaseEvent: String?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            let appID = AppID(rawValue: id)
            var segmentProperties: SegmentProperties?
            if clearSegmentProperties || !segmentEventProperties.isEmpty || !segmentUserProperties.isEmpty {
                guard let current = try await store.apps.app(id: appID) else { throw TallyStoreError.unknownApp(appID) }
                var properties = clearSegmentProperties ? SegmentProperties() : current.segmentProperties
                if !segmentEventProperties.isEmpty { properties.event = segmentEventProperties }
                if !segmentUserProperties.isEmpty { properties.user = segmentUserProperties }
                // Unchanged properties are not passed, so the index is not rebuilt for nothing.
                if properties != current.segmentProperties { segmentProperties = properties }
            }
            let app = try await store.apps.update(
                appID, timeZone: tz, acceptedEventAge: maxEventAgeDays.map { $0 * 86_400 }, segmentProperties: segmentProperties,
                purchaseEvent: purchaseEvent, rawRetention: rawRetentionDays)
            let segments = app.segmentProperties
            say(
                "app \(app.id.rawValue) (\(app.name)): time zone \(app.timeZone), events accepted up to \(app.acceptedEventAge / 86_400) days old, "
                    + "raw events \(app.rawRetentionText), "
                    + "segment event properties [\(segments.event.joined(separator: ", "))], user properties [\(segments.user.joined(separator: ", "))], "
                    + "purchase event \(app.purchaseEvent)"
            )
        }
    }

    /// `tally app rotate-keys ID`: replaces an app's ingest key and read token and prints them.
    struct RotateKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace an app's ingest key and read token (the old ones stop working; shown only once)."
        )

        @Argument(help: "The app's id.")
        var id: Int64

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            say(try KeysOutput(try await store.apps.rotateKeys(AppID(rawValue: id))).json)
        }
    }
}

/// `{"app": ..., "app_id": ..., "ingest_key": ..., "read_token": ..., "write_token": ...}`, as
/// `tally app create` prints it: the id is what `tally app update`, `rotate-keys` and `user grant` take.
struct KeysOutput: Encodable {
    let app: String
    let appID: Int64
    let ingestKey: String
    let readToken: String
    let writeToken: String

    init(_ created: NewApp) {
        app = created.app.name
        appID = created.app.id.rawValue
        ingestKey = created.ingestKey
        readToken = created.readToken
        writeToken = created.writeToken
    }

    var json: String {
        get throws {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }
}
