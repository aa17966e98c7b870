import Crypto
import Foundation

/// Generation and hashing of the secrets that authenticate ingestion and reading.
///
/// A key is a prefix naming its role followed by 32 bytes from the system's secure random
/// generator in unpadded base64url, so it is URL-safe and carries 256 bits of entropy.
/// Only `SHA256(utf8(key))` is stored; a presented key is hashed the same way and looked
/// up by hash, so the database never holds a usable key.
enum AccessKey {
    /// A fresh random key starting with `prefix`.
    static func generate(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64URL = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return prefix + base64URL
    }

    /// The value stored for, and looked up from, a key.
    static func hash(_ key: String) -> Data {
        Data(SHA256.hash(data: Data(key.utf8)))
    }
}
