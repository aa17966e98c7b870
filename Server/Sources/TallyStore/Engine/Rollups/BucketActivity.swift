/// The per-user detail of one bucket, in the `names` and `versions` blobs of `bucket_activity`.
///
/// Both blobs are lists of sections keyed by a `label` id, ascending, each holding users,
/// ascending, with one number per user:
///
/// - `names`: per event name, the users who sent it in the bucket and how many times
///   (per-user averages and maxima of a day, distinct users per name);
/// - `versions`: per app version, the users whose last event in the bucket had that version,
///   with that event's millisecond counted from the bucket's start (so ingest can tell
///   whether a later-arriving event replaces it).
///
/// A section is its label and its length in bytes (``Varint``s) so readers skip the sections
/// they do not need, then per user the gap from the previous user and the number. At a byte
/// or two a user, the detail of a day of the 20,000-user benchmark fixture is about 300 KB.
struct BucketActivity {
    /// A user's last event in the bucket.
    struct LastEvent {
        /// Milliseconds from the bucket's start.
        var offset: Int64
        /// The app version's `label` id.
        var version: Int64
    }

    /// Per event name (a `label` id): each user who sent it in the bucket, and how many times.
    var names: [Int64: [UInt32: Int64]] = [:]
    /// Per user: the last event in the bucket.
    var last: [UInt32: LastEvent] = [:]

    init() {}

    /// Decodes the two blobs of a stored row.
    init(names: UnsafeRawBufferPointer, versions: UnsafeRawBufferPointer) throws {
        try Self.forEachSection(in: names) { name, entries in
            var users: [UInt32: Int64] = [:]
            try Self.forEachEntry(in: entries) { user, count in users[user] = count }
            self.names[name] = users
        }
        try Self.forEachSection(in: versions) { version, entries in
            try Self.forEachEntry(in: entries) { user, offset in last[user] = LastEvent(offset: offset, version: version) }
        }
    }

    /// The `names` blob.
    var encodedNames: [UInt8] {
        Self.encode(names.mapValues { $0.map { ($0.key, $0.value) } })
    }

    /// The `versions` blob.
    var encodedVersions: [UInt8] {
        var sections: [Int64: [(UInt32, Int64)]] = [:]
        for (user, event) in last { sections[event.version, default: []].append((user, event.offset)) }
        return Self.encode(sections)
    }

    private static func encode(_ sections: [Int64: [(user: UInt32, value: Int64)]]) -> [UInt8] {
        var bytes: [UInt8] = []
        var entries: [UInt8] = []
        for (label, users) in sections.sorted(by: { $0.key < $1.key }) {
            entries.removeAll(keepingCapacity: true)
            var previous: UInt32 = 0
            for (user, value) in users.sorted(by: { $0.user < $1.user }) {
                Varint.append(UInt64(user - previous), to: &entries)
                Varint.append(UInt64(value), to: &entries)
                previous = user
            }
            Varint.append(UInt64(label), to: &bytes)
            Varint.append(UInt64(entries.count), to: &bytes)
            bytes.append(contentsOf: entries)
        }
        return bytes
    }

    /// Calls `body` with the label and the entry bytes of each section of a blob, in order.
    ///
    /// - Throws: ``DamagedRollup`` if the blob is cut short; what `body` throws.
    static func forEachSection(
        in bytes: UnsafeRawBufferPointer, _ body: (_ label: Int64, _ entries: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var offset = 0
        while offset < bytes.count {
            guard let label = Varint.read(bytes, at: &offset), let length = Varint.read(bytes, at: &offset),
                label <= Int64.max, length <= bytes.count - offset
            else { throw DamagedRollup(table: "bucket_activity") }
            try body(Int64(label), UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)]))
            offset += Int(length)
        }
    }

    /// Calls `body` with each user of a section's entry bytes, ascending, and its number.
    ///
    /// - Throws: ``DamagedRollup`` if the entries are cut short or a user exceeds `UInt32`.
    static func forEachEntry(
        in entries: UnsafeRawBufferPointer, _ body: (_ user: UInt32, _ value: Int64) throws -> Void
    ) throws {
        var offset = 0
        var user: UInt64 = 0
        while offset < entries.count {
            guard let gap = Varint.read(entries, at: &offset), let value = Varint.read(entries, at: &offset),
                gap <= UInt64(UInt32.max) - user, value <= Int64.max
            else { throw DamagedRollup(table: "bucket_activity") }
            user += gap
            try body(UInt32(user), Int64(value))
        }
    }
}
