extension RollupReader {
    /// For each window between consecutive `starts` (window `i` is `starts[i]..<starts[i + 1]`),
    /// the users whose first event ever is in it, and how many of them have an event in each
    /// later window.
    ///
    /// Set operations only: each window's first-seen and active user sets, then the size of
    /// every cohort's intersection with every later window's active users.
    func retention(between starts: [Int64]) throws -> [(size: Int, returning: [Int])] {
        let windows = zip(starts, starts.dropFirst()).map { $0..<$1 }
        let active = try windows.dropFirst().map(activeUsers(in:))
        return try windows.enumerated().map { index, window in
            let cohort = try firstSeenUsers(in: window)
            return (cohort.count, active[index...].map(cohort.intersectionCount))
        }
    }

    /// For each of `cohorts`, the users whose first event ever is in it, and how many of them
    /// have an event in `later`.
    func returning(to later: Range<Int64>, from cohorts: [Range<Int64>]) throws -> [(firstSeen: Int, returned: Int)] {
        let active = try activeUsers(in: later)
        return try cohorts.map { cohort in
            let members = try firstSeenUsers(in: cohort)
            return (members.count, members.intersectionCount(active))
        }
    }
}
