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

    /// The `label` id of the value the key of `labels` holds for `property` (0: none):
    /// `app_version` and `platform` by position, an event property by the pair whose first
    /// element is `name`, its name's `label` id (`nil` when no label has that name yet).
    static func value(of property: String, named name: Int64?, in labels: [Int64]) -> Int64 {
        switch property {
        case "app_version": return labels.first ?? 0
        case "platform": return labels.count > 1 ? labels[1] : 0
        default:
            // The (name, value) pairs after app_version and platform.
            var index = 2
            while index + 1 < labels.count, labels[index] != name { index += 2 }
            return index + 1 < labels.count ? labels[index + 1] : 0
        }
    }
}
