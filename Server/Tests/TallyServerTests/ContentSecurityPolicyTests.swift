import Foundation
import Testing

@testable import TallyHTTP
@testable import TallyServer

/// The policy of every answer, and the one of an answer with `<style>` elements of its own.
@Suite struct ContentSecurityPolicyTests {
    @Test func withoutANonceNothingInlineApplies() {
        #expect(
            ContentSecurityPolicy().header
                == "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
    }

    @Test func aNonceAllowsTheStylesThatCarryItAndNothingElse() {
        let header = ContentSecurityPolicy(styleNonce: "AbC+/9==").header
        #expect(header.hasPrefix("default-src 'self'; style-src 'self' 'nonce-AbC+/9=='; img-src 'self' data:;"))
        #expect(!header.contains("unsafe"))
        #expect(!header.contains("script-src"), "scripts stay this origin's files")
    }

    /// 128 random bits each time, in base64: as many as 22 characters and `==` hold.
    @Test func nonceIsNewBase64OfSixteenBytes() throws {
        let nonces = (0..<100).map { _ in ContentSecurityPolicy.makeNonce() }
        #expect(Set(nonces).count == nonces.count)
        for nonce in nonces {
            #expect(try #require(Data(base64Encoded: nonce)).count == 16)
            #expect(ContentSecurityPolicy(styleNonce: nonce).styleNonce == nonce)
        }
    }
}
