import TallyEvent

extension EventStore {
    /// Of `events`, raw events of `app` (for example a day's), those `filter` matches: its
    /// event conditions on each event's own fields and properties, its user conditions on
    /// the users' latest values, as every filtered metric counts them.
    ///
    /// For the metrics that still read raw events (property metrics, the live feed).
    ///
    /// - Throws: ``TallyStoreError/unknownFilterProperty(_:)``, ``TallyStoreError/unknownApp(_:)``,
    ///   or a database error.
    func matching(_ events: [Event], app: AppID, filter: SegmentFilter) async throws -> [Event] {
        guard !filter.isEmpty else { return events }
        let (properties, users) = try await read(app: app, timeZone: nil, filter: filter) { _ in
            var needs = RollupNeeds()
            needs.segmentKeys = true
            return needs
        } body: { reader, _ in
            (reader.properties, reader.segment!)
        }
        let numbers =
            users.restrictsUsers ? try await backend.userNumbers(app: app, users: Array(Set(events.map(\.userID)))) : [:]
        let conditions = filter.conditions.filter { !properties.user.contains($0.property) }
        return events.filter { event in
            if users.restrictsUsers, !(numbers[event.userID].map(users.allows(user:)) ?? false) { return false }
            return conditions.allSatisfy { $0.matches(event.segmentValue(of: $0.property)) }
        }
    }

    /// The raw events of `app` named `name` in `milliseconds` that `filter` matches.
    func events(named name: String, app: AppID, in milliseconds: Range<Int64>, filter: SegmentFilter) async throws -> [Event] {
        var events: [Event] = []
        for try await event in EventExport(backend: backend, app: app, range: milliseconds) where event.name == name {
            events.append(event)
        }
        return try await matching(events, app: app, filter: filter)
    }
}
