/// One bucket's events as the engine keeps them, in the `events` blob of `bucket_log`: what
/// segments and funnels read, so that they stay exact without raw events.
///
/// Each event is its user, its millisecond from the bucket's start, its name, its segment
/// key (``SegmentDelta``) and its screen (a `screen_view`'s `screen`), the last three as ids
/// (0 for no screen). Events are sorted by user, then time, so a reader meets each user's
/// events in order. The blob holds, per user ascending, ``Varint``s: the gap from the
/// previous user, the user's event count, then per event the gap from the user's previous
/// millisecond in the bucket, the name, the key and the screen: about 5 bytes an event.
struct BucketLog: Equatable {
    /// One event.
    struct Entry: Comparable {
        var user: UInt32
        /// Milliseconds from the bucket's start, below ``Bucket/milliseconds``.
        var offset: UInt32
        /// The name's `label` id.
        var name: Int64
        /// The segment key's number in its app.
        var key: Int64
        /// The `screen` property's `label` id on a `screen_view`, else 0.
        var screen: Int64

        static func < (a: Entry, b: Entry) -> Bool {
            (a.user, a.offset, a.name, a.key, a.screen) < (b.user, b.offset, b.name, b.key, b.screen)
        }
    }

    /// The events, sorted.
    private(set) var entries: [Entry]

    /// A log of `entries`, in any order.
    init(_ entries: [Entry] = []) {
        self.entries = entries.sorted()
    }

    /// Decodes a stored blob.
    ///
    /// - Throws: ``DamagedRollup`` if it is cut short or out of range.
    init(encoded bytes: UnsafeRawBufferPointer) throws {
        entries = []
        var cursor = Cursor(bytes)
        while let entry = try cursor.next() { entries.append(entry) }
    }

    /// Adds `new` to the log.
    mutating func merge(_ new: [Entry]) {
        entries = (entries + new).sorted()
    }

    /// The blob.
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 6)
        var previousUser: UInt32 = 0
        var index = entries.startIndex
        while index < entries.endIndex {
            let user = entries[index].user
            var end = index
            while end < entries.endIndex, entries[end].user == user { end += 1 }
            Varint.append(UInt64(user - previousUser), to: &bytes)
            Varint.append(UInt64(end - index), to: &bytes)
            var previousOffset: UInt32 = 0
            for entry in entries[index..<end] {
                Varint.append(UInt64(entry.offset - previousOffset), to: &bytes)
                Varint.append(UInt64(entry.name), to: &bytes)
                Varint.append(UInt64(entry.key), to: &bytes)
                Varint.append(UInt64(entry.screen), to: &bytes)
                previousOffset = entry.offset
            }
            previousUser = user
            index = end
        }
        return bytes
    }

    /// Reads a blob's events in order without keeping them: the loop of every segment and
    /// funnel scan.
    struct Cursor {
        private let bytes: UnsafeRawBufferPointer
        private var position = 0
        private var user: UInt64 = 0
        private var remaining: UInt64 = 0
        private var offset: UInt64 = 0

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// The next event, or `nil` at the end.
        ///
        /// - Throws: ``DamagedRollup`` if the blob is cut short or a number is out of range.
        @inline(__always)
        mutating func next() throws -> Entry? {
            if remaining == 0 {
                guard position < bytes.count else { return nil }
                guard let gap = Varint.read(bytes, at: &position), let count = Varint.read(bytes, at: &position),
                    gap <= UInt64(UInt32.max) - user, count > 0
                else { throw DamagedRollup(table: "bucket_log") }
                user += gap
                remaining = count
                offset = 0
            }
            guard let gap = Varint.read(bytes, at: &position), let name = Varint.read(bytes, at: &position),
                let key = Varint.read(bytes, at: &position), let screen = Varint.read(bytes, at: &position),
                gap < UInt64(Bucket.milliseconds) - offset, name <= Int64.max, key <= Int64.max, screen <= Int64.max
            else { throw DamagedRollup(table: "bucket_log") }
            offset += gap
            remaining -= 1
            return Entry(user: UInt32(user), offset: UInt32(offset), name: Int64(name), key: Int64(key), screen: Int64(screen))
        }
    }
}
