/// Every active user's events per name and last app version over a window, accumulated
/// from the `user_bucket` rows that ``RollupReader/userActivity(in:)`` reads.
///
/// A day holds tens of thousands of entries, so the table is laid out for that loop: users
/// get dense indexes (one dictionary access per row), counts live in one array per name (a
/// day has a dozen names), and nothing is allocated per user beyond those arrays' growth.
struct ActivityTable {
    /// The dense index of each user key.
    private(set) var users: [Int64: Int] = [:]
    /// The `label` ids of the names seen, in order of first appearance.
    private var names: [Int64] = []
    /// `counts[name][user]`: events, by the indexes of `names` and `users`.
    private var counts: [[Int]] = []
    /// Per user index: the last event's timestamp, and its version's `label` id.
    private var lastEvents: [(timestamp: Int64, version: Int64)] = []

    /// The index of the user with key `key`, added with no events if new.
    mutating func index(ofUser key: Int64) -> Int {
        if let index = users[key] { return index }
        let index = lastEvents.count
        users[key] = index
        lastEvents.append((.min, 0))
        for name in counts.indices { counts[name].append(0) }
        return index
    }

    /// Adds `count` events named `name` by user `user` (an ``index(ofUser:)``).
    mutating func add(user: Int, name: Int64, count: Int) {
        let slot: Int
        if let index = names.firstIndex(of: name) {
            slot = index
        } else {
            slot = names.count
            names.append(name)
            counts.append(Array(repeating: 0, count: lastEvents.count))
        }
        counts[slot][user] += count
    }

    /// Records an event of user `user` at `timestamp` with version `version`, if it is the
    /// user's last so far: the later timestamp wins, then the greater version text, looked up
    /// with `versionText` only on a tie, so the result never depends on row order.
    mutating func see(
        user: Int, lastTimestamp timestamp: Int64, version: Int64, versionText: (Int64) throws -> String
    ) rethrows {
        let last = lastEvents[user]
        guard timestamp >= last.timestamp else { return }
        if timestamp == last.timestamp {
            guard version != last.version, try versionText(version) > versionText(last.version) else { return }
        }
        lastEvents[user] = (timestamp, version)
    }

    /// Per name: the events, the users who sent it, and the most one user sent.
    var totals: [(name: Int64, events: Int, users: Int, maximum: Int)] {
        zip(names, counts).map { name, counts in
            var total = (name: name, events: 0, users: 0, maximum: 0)
            for count in counts where count > 0 {
                total.events += count
                total.users += 1
                total.maximum = max(total.maximum, count)
            }
            return total
        }
    }

    /// The number of users whose last event had each version (a `label` id).
    var versions: [Int64: Int] {
        lastEvents.reduce(into: [:]) { $0[$1.version, default: 0] += 1 }
    }
}
