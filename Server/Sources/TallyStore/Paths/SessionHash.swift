import Crypto

/// How the engine tells one session of a user from another without its text: the first 8
/// bytes of the SHA-256 of its `session_id`, little-endian, kept per event in the
/// ``BucketLog``; 0 stands for no session (no `session_id`, or an empty one).
///
/// Paths group a user's events by this hash. Two sessions of one user share it with a
/// probability of about n² / 2⁶⁵ for n sessions of that user (10⁻¹³ for 2,000 sessions); a
/// user's own client could aim for it only by sending 2³² crafted session ids, and would only
/// join two of its own sessions. Keeping the texts instead would take 36 bytes a session in
/// every bucket log (a UUID), or a table of every session written by ingest.
enum SessionHash {
    /// The hash of `session`, 0 for none.
    static func of(_ session: String?) -> UInt64 {
        guard let session, !session.isEmpty else { return 0 }
        let digest = SHA256.hash(data: Array(session.utf8))
        let hash = digest.withUnsafeBytes { bytes in (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[$1]) << (8 * $1) } }
        return hash == 0 ? 1 : hash
    }
}
