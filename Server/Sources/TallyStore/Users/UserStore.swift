import TallyEvent

/// The users an app tracks: searching them by id, their property values, and one user's timeline. Reached as ``AccountStore/all``.
public struct UserStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// The users the apps track (not dashboard accounts: see ``accounts``).
    public var users: UserStore { UserStore(store: self) }
}

extension UserStore {
    /// The most users a search answers.
    public static let maximumUserSearchResults = 100
    /// The most events a timeline page holds.
    public static let maximumTimelinePage = 1_000
    /// The app's users whose id starts with `prefix`, in code point order of their ids (all
    /// of them, from the first, for an empty prefix).
    ///
    /// ```swift
    /// let users = try await store.users(app: app, prefix: "ana")  // "ana", "ana.b", "anabel", …
    /// ```
    ///
    /// - Parameter limit: 1 to ``maximumUserSearchResults``, clamped.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, or a database error.
    public func search(app: AppID, prefix: String, limit: Int = 20) async throws -> [AppUser] {
        guard try await store.apps.app(id: app.production) != nil else { throw TallyStoreError.unknownApp(app) }
        return try await backend.appUsers(app: app, prefix: prefix, limit: min(max(limit, 1), Self.maximumUserSearchResults))
    }

    /// The values the app's users have for each of the user segment properties `properties`
    /// (each user's latest, told by an `identify` event or a `$set`), with how many users have
    /// each, most users first: what a filter on the property can choose from. A property that
    /// is not one of the app's user properties, or that no user has, gets no values. One read
    /// for all of them.
    ///
    /// ```swift
    /// let values = try await store.userPropertyValues(app: app, properties: ["plan"])
    /// values["plan"]  // [("free", 812), ("pro", 301), …]
    /// ```
    ///
    /// - Parameter limit: The most values answered per property, 1 or more.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, or a database error.
    public func propertyValues(
        app: AppID, properties: [String], limit: Int = 12
    ) async throws -> [String: [(value: String, users: Int)]] {
        try await backend.readRollups(app: app) { _ in
            var needs = RollupNeeds()
            needs.segmentKeys = true
            needs.labelTexts = properties
            return needs
        } body: { reader, stored in
            var answer: [String: [(value: String, users: Int)]] = [:]
            for property in properties where stored.segmentProperties.user.contains(property) {
                guard let id = try reader.rows.labelID(property) else { continue }
                var values: [(value: String, users: Int)] = []
                try reader.rows.forEachTraitUsers(property: id) { value, users in
                    let count = try UserSet(serialized: users).count
                    if count > 0 { values.append((try reader.rows.label(value), count)) }
                }
                answer[property] = Array(values.sorted { ($1.users, $0.value) < ($0.users, $1.value) }.prefix(max(limit, 1)))
            }
            return answer
        }
    }

    /// One user's events, newest first, a page at a time, with what the store knows of them:
    /// when they were first seen, the app version and platform of their newest event, and
    /// their values of the app's user segment properties.
    ///
    /// The events are found through what the engine stores, so that ingest pays nothing for
    /// them: the days the user was active (`day_users`), newest first, then their events'
    /// milliseconds and segment keys in those days' ``BucketLog``s, which a filter's event
    /// conditions are decided on. Only the raw events of the page are read, each by its
    /// millisecond. An index of the raw events by user cost ingest on one core 13% of its
    /// events/s (104,041 against 119,168, medians of 8 alternating runs).
    ///
    /// ```swift
    /// var page = try await store.timeline(app: app, user: "ana")
    /// while let next = page?.next { page = try await store.timeline(app: app, user: "ana", before: next) }
    /// ```
    ///
    /// - Parameters:
    ///   - user: The user's id, as the app sends it.
    ///   - before: The ``UserTimeline/next`` of the page before; `nil` for the newest events.
    ///   - limit: 1 to ``maximumTimelinePage`` events, clamped.
    ///   - filter: Only the events it matches (see ``SegmentFilter``); its user conditions hold
    ///     for all of the user's events or none.
    /// - Returns: `nil` if the app has no such user. A page reads the logs of at most 64 days
    ///   the user was active on, so it may hold fewer events than `limit` (none, under a filter
    ///   that matches few) with a ``UserTimeline/next``.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, ``TallyStoreError/unknownFilterProperty(_:)``,
    ///   or a database error.
    public func timeline(
        app: AppID, user: String, before: UserTimeline.Cursor? = nil, limit: Int = 100, filter: SegmentFilter = SegmentFilter()
    ) async throws -> UserTimeline? {
        guard let settings = try await store.apps.app(id: app.production) else { throw TallyStoreError.unknownApp(app) }
        guard let (appUser, number, lastDay) = try await backend.appUser(app: app, id: user) else { return nil }
        let traits = try await backend.userTraits(app: app, number: number, properties: settings.segmentProperties.user)
        // The search starts at the first UTC day the app keeps raw events of: the days before
        // it have no raw rows left to read.
        let keptSince = settings.rawEventsKeptSince.flatMap { $0 > appUser.firstSeen ? $0 : nil }
        let firstDay = Bucket.day(of: Bucket.containing(milliseconds: max(appUser.firstSeen, keptSince ?? .distantPast).unixMilliseconds))
        let search = UserEventSearch(
            store: store, app: app, user: user, number: number, days: firstDay...max(firstDay, lastDay), properties: settings.segmentProperties,
            traits: traits)
        let limit = min(max(limit, 1), Self.maximumTimelinePage)
        var (events, resume) = try await search.events(before: before?.eventCursor, count: limit + 1, filter: filter)
        let newest =
            before == nil && filter.isEmpty ? events.first : try await search.events(before: nil, count: 1, filter: SegmentFilter()).events.first
        var next = resume.map(UserTimeline.Cursor.init)
        if events.count > limit {
            events.removeSubrange(limit...)
            next = events.last.map { UserTimeline.Cursor($0.cursor) }
        }
        return UserTimeline(
            user: appUser, appVersion: newest?.event.appVersion, platform: newest?.event.platform, properties: traits,
            events: events.map(\.event), next: next, rawEventsKeptSince: keptSince)
    }
}
