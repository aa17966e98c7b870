import Foundation
import Hummingbird
import TallyEvent
import TallyHTTP
import TallyStore

/// `GET /v1/users?prefix=…[&limit=…]` and `GET /v1/users/{user_id}/events[?before=…][&limit=…][&filters=…]`:
/// the users of the app whose read token is presented as `Authorization: Bearer <token>`,
/// found by the start of their id, and one user's events, newest first (see ``UserTimeline``).
///
/// `{user_id}` is percent-encoded UTF-8. A user the app does not have is a 404, as is a user
/// of another app: a token reaches its own app's users only.
///
/// Both wait their turn in ``ReadAdmission`` as reads of the token's app.
struct AppUserController {
    let store: EventStore
    let apps: AppDirectory
    let reads: ReadAdmission

    /// The users a search answers without `limit`.
    static let defaultSearchLimit = 20
    /// The events a timeline page holds without `limit`.
    static let defaultPageLimit = 100

    /// `?prefix=TEXT[&limit=1…100]`: `{"users": [{"user_id", "first_seen"}]}`, the users whose
    /// id starts with `prefix` in code point order (all, from the first, without one).
    func search(_ request: Request) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request)
            let query = QueryParameters(request.uri.query)
            let limit = try Self.limit(query, default: Self.defaultSearchLimit, maximum: UserStore.maximumUserSearchResults)
            let prefix = try query.get("prefix") ?? ""
            let users = try await reads.run(.tokens(of: app)) { try await store.users.search(app: app.id, prefix: prefix, limit: limit) }
            return try .json(["users": users.map(AppUserBody.init)], encoder: Response.timeEncoder)
        }
    }

    /// `[?before=CURSOR][&limit=1…1000][&filters=…]`: `{"user": {"user_id", "first_seen",
    /// "app_version", "platform", "properties"}, "events": […], "next"}`, the events newest
    /// first; `next`, when there is one, is the `before` of the page after.
    func timeline(_ request: Request, context: some RequestContext) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request)
            // The route has the parameter: a request without it reaches another route.
            let user = try QueryParameters.decoded(Substring(context.parameters.get("user_id") ?? ""), name: "the user id")
            let query = QueryParameters(request.uri.query)
            let limit = try Self.limit(query, default: Self.defaultPageLimit, maximum: UserStore.maximumTimelinePage)
            var before: UserTimeline.Cursor?
            if let text = try query.get("before") {
                guard let cursor = UserTimeline.Cursor(text) else {
                    throw APIError.badRequest("before must be the next of a page before, not \(text.prefix(40))")
                }
                before = cursor
            }
            let filter = try MetricsController.filter(in: query)
            let read = try await reads.run(.tokens(of: app)) { [before] in
                try await store.users.timeline(app: app.id, user: user, before: before, limit: limit, filter: filter)
            }
            guard let timeline = read else {
                throw APIError(status: .notFound, message: "the app has no user \"\(user.prefix(Event.maximumFieldLength))\"")
            }
            return try .json(UserTimelineBody(timeline), encoder: Response.timeEncoder)
        }
    }

    /// `limit` of `query`: a whole number from 1 to `maximum`, `default` without one.
    ///
    /// - Throws: A 400 for anything else.
    static func limit(_ query: QueryParameters, default: Int, maximum: Int) throws(APIError) -> Int {
        guard let text = try query.get("limit") else { return `default` }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw .badRequest("limit must be a whole number from 1 to \(maximum), not \(text.prefix(40))")
        }
        return limit
    }

    /// What `body` answers; a store error becomes a 400, or a 503.
    private func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(storeError: error)
        }
    }
}

/// A user as the API writes them: `{"user_id", "first_seen"}`.
struct AppUserBody: Encodable {
    let userID: String
    let firstSeen: Date

    init(_ user: AppUser) {
        (userID, firstSeen) = (user.id, user.firstSeen)
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case firstSeen = "first_seen"
    }
}

/// A timeline page as the API writes it: the user, the events (each in the keys of the NDJSON
/// export), `next` when a page follows, and `raw_events_kept_since` when the user's events
/// before that instant are no longer kept.
struct UserTimelineBody: Encodable {
    struct User: Encodable {
        let user: AppUserBody
        let appVersion: String?
        let platform: String?
        let properties: [String: String]

        func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(appVersion, forKey: .appVersion)
            try container.encodeIfPresent(platform, forKey: .platform)
            try container.encode(properties, forKey: .properties)
        }

        enum CodingKeys: String, CodingKey {
            case appVersion = "app_version"
            case platform, properties
        }
    }

    let user: User
    let events: [Event]
    let next: String?
    /// When the user's events before an instant are no longer kept (the app's raw event
    /// retention): that instant, where the timeline ends.
    let rawEventsKeptSince: Date?

    init(_ timeline: UserTimeline) {
        user = User(user: AppUserBody(timeline.user), appVersion: timeline.appVersion, platform: timeline.platform, properties: timeline.properties)
        events = timeline.events
        next = timeline.next?.description
        rawEventsKeptSince = timeline.rawEventsKeptSince
    }

    enum CodingKeys: String, CodingKey {
        case user, events, next
        case rawEventsKeptSince = "raw_events_kept_since"
    }
}
