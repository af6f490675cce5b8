import Foundation
import Testing
import TokenKit
import TokenKitCrypto

/// Wycheproof HMAC-SHA256 vectors through the wrapper's `HMACKey`.
///
/// JWS never truncates an HMAC (RFC 7518 §3.2: the full hash output is the signature),
/// so a vector whose tag is truncated is refused ON PURPOSE even when Wycheproof marks it
/// valid: accepting a 16-byte tag for HS256 would let an attacker forge with 2^128 work
/// instead of 2^256 and is a known JWT library bug. Every full-length vector must match.
@Suite("Wycheproof HMAC-SHA256")
struct WycheproofHMACTests {
    static func groups() throws -> [Wycheproof.MACGroup] {
        let data = try TestSupport.vectorData("wycheproof/hmac_sha256_test.json")
        return try JSONDecoder().decode(Wycheproof.File<Wycheproof.MACGroup>.self, from: data).testGroups
    }

    @Test("full-length tags: every verdict matches the vector")
    func fullLengthTags() throws {
        var checked = 0
        for group in try Self.groups() where group.tagSize == 256 {
            for test in group.tests {
                let key = try HMACKey(secret: SecureBytes(TestSupport.hex(test.key)), digest: .sha256)
                let tag = TestSupport.hex(test.tag), message = TestSupport.hex(test.msg)
                let accepted = key.isValid(tag, for: message)
                #expect(accepted == (test.result == "valid"), "tcId \(test.tcId) (\(test.result), \(test.comment)): accepted=\(accepted)")
                if test.result == "valid" {
                    #expect(try key.authenticationCode(for: message) == tag, "tcId \(test.tcId): computed MAC differs")
                }
                checked += 1
            }
        }
        #expect(checked > 80)
    }

    @Test("truncated tags are refused on purpose, including those Wycheproof marks valid")
    func truncatedTagsRefused() throws {
        var refusedValid = 0
        for group in try Self.groups() where group.tagSize < 256 {
            for test in group.tests {
                let key = try HMACKey(secret: SecureBytes(TestSupport.hex(test.key)), digest: .sha256)
                let tag = TestSupport.hex(test.tag), message = TestSupport.hex(test.msg)
                #expect(!key.isValid(tag, for: message), "tcId \(test.tcId): a \(group.tagSize)-bit tag was accepted")
                if test.result == "valid" {
                    // The truncated tag is a true prefix of the full MAC: only the length refuses it.
                    #expect(try key.authenticationCode(for: message).prefix(tag.count).elementsEqual(tag))
                    refusedValid += 1
                }
            }
        }
        #expect(refusedValid > 0, "no truncated-but-valid vector was exercised")
    }

    @Test("keys shorter than 32 bytes (the 128-bit Wycheproof groups) are refused as JWS HS256 keys")
    func shortKeysRefusedForJWS() throws {
        for group in try Self.groups() where group.keySize < 256 {
            for test in group.tests.prefix(3) {
                expectJWTError(.invalidKey) { try JWTKey.hmac(secret: TestSupport.hex(test.key)) }
            }
        }
    }
}
