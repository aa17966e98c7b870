import TallyEvent

/// The search behind ``UserStore/timeline(app:user:before:limit:filter:)``: one user's
/// events, newest first, found through the days they were active and those days' bucket logs,
/// then read from the raw events by millisecond.
struct UserEventSearch {
    let store: EventStore
    let app: AppID
    let user: String
    /// The user's number (`app_user.number`).
    let number: UInt32
    /// The UTC days that can hold the user's events: from their first-seen day to the app's
    /// last day with an event.
    let days: ClosedRange<Int64>
    /// The app's segment properties, and the user's values of its user properties.
    let properties: SegmentProperties
    let traits: [String: String]

    /// The days of user sets one read takes.
    static let daysPerRead: Int64 = 32
    /// The most days with events of the user one search reads the bucket logs of: a filter
    /// that matches few of a long-time user's events stops there.
    static let activeDaysPerSearch = 64

    /// The user's first `count` events older than `cursor` (all, if `nil`) that `filter`
    /// matches, newest first, with their cursors; fewer when the user has fewer, or when
    /// ``activeDaysPerSearch`` days were read first: then `resume` is where to go on from.
    func events(
        before cursor: EventCursor?, count: Int, filter: SegmentFilter
    ) async throws -> (events: [(event: Event, cursor: EventCursor)], resume: EventCursor?) {
        var found: [(event: Event, cursor: EventCursor)] = []
        var newest = min(days.upperBound, cursor.map { Bucket.day(of: Bucket.containing(milliseconds: $0.timestamp)) } ?? days.upperBound)
        var read = 0
        while found.count < count, newest >= days.lowerBound {
            let oldest = max(days.lowerBound, newest - Self.daysPerRead + 1)
            for day in try await activeDays(oldest...newest) {
                if read == Self.activeDaysPerSearch {
                    // Before the day after the last one read: no sequence is below `Int64.min`.
                    return (found, EventCursor(timestamp: (day + 1) * Bucket.perDay * Bucket.milliseconds, sequence: .min))
                }
                read += 1
                let milliseconds = try await milliseconds(on: day, through: cursor?.timestamp, filter: filter)
                // The newest milliseconds first, as many as the events still wanted, and every
                // event of the last millisecond taken.
                var index = 0
                while index < milliseconds.count, found.count < count {
                    var end = min(milliseconds.count, index + count - found.count)
                    while end < milliseconds.count, milliseconds[end] == milliseconds[end - 1] { end += 1 }
                    var events = try await store.backend.userEvents(app: app, user: user, at: Array(Set(milliseconds[index..<end])))
                    // Another event of the user in the same millisecond may not match.
                    events = try events.filter { event in
                        try filter.matches(event.event, userValues: traits, properties: properties)
                            && cursor.map { (event.cursor.timestamp, event.cursor.sequence) < ($0.timestamp, $0.sequence) } ?? true
                    }
                    events.sort { ($0.cursor.timestamp, $0.cursor.sequence) > ($1.cursor.timestamp, $1.cursor.sequence) }
                    found += events.prefix(count - found.count)
                    index = end
                }
                if found.count >= count { break }
            }
            newest = oldest - 1
        }
        return (found, nil)
    }

    /// The days of `days` the user had an event on, newest first, from `day_users`.
    func activeDays(_ days: ClosedRange<Int64>) async throws -> [Int64] {
        let number = number
        return try await store.backend.readRollups(app: app) { _ in
            RollupNeeds(userWindows: [days.lowerBound * Bucket.perDay..<(days.upperBound + 1) * Bucket.perDay])
        } body: { reader, _ in
            try days.reversed().filter { day in
                var active = false
                try reader.rows.forEachUserSet(.active, of: .day, in: day..<day + 1) { active = try UserSet(serialized: $0).contains(number) }
                return active
            }
        }
    }

    /// The milliseconds of the user's events on the UTC day `day`, at most `through`, whose
    /// segment keys (and user) `filter` matches, newest first, one per event.
    func milliseconds(on day: Int64, through last: Int64?, filter: SegmentFilter) async throws -> [Int64] {
        let (number, buckets) = (number, day * Bucket.perDay..<(day + 1) * Bucket.perDay)
        return try await store.backend.readRollups(app: app) { _ in
            var needs = RollupNeeds()
            needs.logs = [buckets]
            needs.segmentKeys = !filter.isEmpty
            return needs
        } body: { reader, stored in
            let segment = filter.isEmpty ? nil : try SegmentMatcher(filter, properties: stored.segmentProperties, rows: reader.rows)
            guard segment?.allows(user: number) ?? true else { return [] }
            var milliseconds: [Int64] = []
            for (bucket, log) in try reader.rows.logs(in: buckets) {
                let view = log.view
                for section in view.sections {
                    var runs = view.runs(of: section)
                    // Runs come by user ascending: the user's, if any, before any greater.
                    while let run = try runs.next(), run.user <= number {
                        guard run.user == number else { continue }
                        for index in run.events where segment?.matches(key: view.keys[view.keyIndex(at: index)]) ?? true {
                            milliseconds.append(bucket * Bucket.milliseconds + Int64(view.columns.offset(at: index)))
                        }
                    }
                }
            }
            return milliseconds.filter { $0 <= last ?? .max }.sorted(by: >)
        }
    }
}
