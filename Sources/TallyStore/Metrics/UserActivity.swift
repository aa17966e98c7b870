/// One user's activity over some buckets, as ``RollupReader/userActivity(in:)`` gathers it:
/// events per name (`label` ids) and the last event's timestamp and version.
struct UserActivity {
    /// Events per name id; a user sends few distinct names, so a list beats a dictionary.
    private(set) var counts: [(name: Int64, count: Int)] = []
    private(set) var lastTimestamp = Int64.min
    /// The `label` id of the last event's app version.
    private(set) var lastVersion: Int64 = 0

    /// Adds `count` events named `name`.
    mutating func add(name: Int64, count: Int) {
        if let index = counts.firstIndex(where: { $0.name == name }) {
            counts[index].count += count
        } else {
            counts.append((name, count))
        }
    }

    /// Keeps the later of the last event so far and one at `timestamp` with version `version`:
    /// the greater timestamp, then the greater version text (looked up with `versionText` only
    /// on a tie).
    mutating func see(lastTimestamp timestamp: Int64, version: Int64, versionText: (Int64) throws -> String) rethrows {
        guard timestamp >= lastTimestamp else { return }
        if timestamp == lastTimestamp {
            guard version != lastVersion, try versionText(version) > versionText(lastVersion) else { return }
        }
        (lastTimestamp, lastVersion) = (timestamp, version)
    }

    /// Adds `other`'s counts and keeps the later last event.
    mutating func merge(_ other: Self, versionText: (Int64) throws -> String) rethrows {
        for (name, count) in other.counts { add(name: name, count: count) }
        try see(lastTimestamp: other.lastTimestamp, version: other.lastVersion, versionText: versionText)
    }

    /// Forgets everything, keeping the storage for reuse.
    mutating func removeAll() {
        counts.removeAll(keepingCapacity: true)
        lastTimestamp = .min
    }
}
