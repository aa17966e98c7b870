extension BucketActivity {
    /// A blob of ``BucketActivity`` (`names` or `versions`) without `user`'s entries, or `nil`
    /// when it has none: the entries are copied as they are, but for the gap of the entry after
    /// the user's, which takes the user's gap too, and sections left empty go. Decoding the
    /// detail of a busy bucket into dictionaries and encoding it again cost a deletion tens of
    /// times more.
    ///
    /// - Throws: ``DamagedRollup`` if the blob is cut short.
    static func removing(_ user: UInt32, from bytes: UnsafeRawBufferPointer) throws -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var entries: [UInt8] = []
        var removed = false
        try forEachSection(in: bytes) { label, section in
            entries.removeAll(keepingCapacity: true)
            var (offset, number, carried): (Int, UInt64, UInt64) = (0, 0, 0)
            while offset < section.count {
                guard let gap = Varint.read(section, at: &offset), let value = Varint.read(section, at: &offset) else {
                    throw DamagedRollup(table: "bucket_activity")
                }
                number += gap
                if number == UInt64(user) {
                    (carried, removed) = (gap, true)
                    continue
                }
                Varint.append(gap + carried, to: &entries)
                Varint.append(value, to: &entries)
                carried = 0
            }
            guard !entries.isEmpty else { return }
            Varint.append(UInt64(label), to: &output)
            Varint.append(UInt64(entries.count), to: &output)
            output += entries
        }
        return removed ? output : nil
    }
}
