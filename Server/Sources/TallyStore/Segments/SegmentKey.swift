/// A segment key's stored form (see ``SegmentDelta``): its `label` ids as ``Varint``s, the
/// `labels` column of `segment_key`.
enum SegmentKey {
    /// The `labels` blob of `labels`.
    static func encoded(_ labels: [Int64]) -> [UInt8] {
        var bytes: [UInt8] = []
        for label in labels { Varint.append(UInt64(label), to: &bytes) }
        return bytes
    }

    /// The `label` ids of a `labels` blob.
    ///
    /// - Throws: ``DamagedRollup`` if it does not decode.
    static func decoded(_ bytes: UnsafeRawBufferPointer) throws -> [Int64] {
        var labels: [Int64] = []
        var offset = 0
        while offset < bytes.count {
            guard let label = Varint.read(bytes, at: &offset), label <= Int64.max else { throw DamagedRollup(table: "segment_key") }
            labels.append(Int64(label))
        }
        return labels
    }
}
