/// How the engine tells one session of a user from another without its text: a 64-bit hash
/// of its `session_id` (MurmurHash64A over its UTF-8 bytes), kept per event in the
/// ``BucketLog``; 0 stands for no session (no `session_id`, or an empty one).
///
/// Paths group a user's events by this hash. Two sessions of one user share it with a
/// probability of about n² / 2⁶⁵ for n sessions of that user (10⁻¹³ for 2,000 sessions).
/// The hash is not keyed: a client that crafts colliding ids joins two sessions of its own
/// user, in its own app, and nothing else. Keeping the texts instead would take 36 bytes a
/// session in every bucket log (a UUID), or a table of every session written by ingest.
///
/// Ingest hashes every event's session, so the hash is written here for speed: over 200,000
/// ids (short ones like the fixture's and UUIDs), 19 ns an id, against 130–160 ns for
/// swift-crypto's SHA-256 cut to 8 bytes, which made ingest spend 1% of its CPU hashing.
enum SessionHash {
    /// The hash of `session`, 0 for none.
    static func of(_ session: String?) -> UInt64 {
        guard var session, !session.isEmpty else { return 0 }
        let hash = session.withUTF8 { murmur64A(UnsafeRawBufferPointer($0)) }
        return hash == 0 ? 1 : hash
    }

    /// MurmurHash64A of `bytes`, seed 0.
    static func murmur64A(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0xc6a4_a793_5bd1_e995
        var hash = UInt64(bytes.count) &* multiplier
        var offset = 0
        while offset + 8 <= bytes.count {
            var word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            word ^= word >> 47
            hash = (hash ^ (word &* multiplier)) &* multiplier
            offset += 8
        }
        if offset < bytes.count {
            for index in offset..<bytes.count { hash ^= UInt64(bytes[index]) << (8 * (index - offset)) }
            hash = hash &* multiplier
        }
        hash ^= hash >> 47
        hash = hash &* multiplier
        return hash ^ (hash >> 47)
    }
}
