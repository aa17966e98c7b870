import Foundation
import Testing

@testable import TallyStore

@Suite struct AccessKeyTests {
    /// Stored hashes are SHA-256 of the key's UTF-8: databases written by earlier versions
    /// must keep authenticating their keys.
    @Test func theStoredHashIsSHA256OfTheKey() {
        let vectors = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("早饭", "2504ff16dd4cce104b30d22a6b71c0ac918da5d5ad9b27f00ede63e48546b1fc"),
        ]
        for (key, digest) in vectors {
            #expect(AccessKey.hash(key).map { String(format: "%02x", $0) }.joined() == digest)
        }
    }

    @Test func generatedKeysCarry256RandomBitsInURLSafeText() {
        let keys = (0..<100).map { _ in AccessKey.generate(prefix: "ik_") }
        #expect(Set(keys).count == keys.count)
        for key in keys {
            #expect(key.hasPrefix("ik_"))
            let body = key.dropFirst(3)
            #expect(body.count == 43)  // 32 bytes in unpadded base64url
            #expect(body.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
    }
}
