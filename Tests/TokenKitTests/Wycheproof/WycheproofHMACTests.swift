import Foundation
import Testing
import TokenKit
import TokenKitCrypto

/// Wycheproof HMAC-SHA256 vectors through the wrapper's `HMACKey`, and their keys as JWS
/// HS256 keys.
///
/// Refused ON PURPOSE although Wycheproof marks them valid:
/// - truncated tags: JWS never truncates an HMAC (RFC 7518 §3.2: the signature is the full
///   hash output), and accepting a 128-bit tag for HS256 halves the forgery work; a known
///   JWT library bug. Refused by `HMACKey.isValid`, and as `bad-signature` in a JWS.
/// - 16-byte keys: HS256 needs a key at least as long as the hash (RFC 7518 §3.2), so
///   `JWTKey.hmac` refuses them with `invalid-key` (the raw primitive still computes them).
/// Every other vector must match its verdict exactly.
@Suite("Wycheproof HMAC-SHA256")
struct WycheproofHMACTests {
    /// Valid vectors with a 128-bit (truncated) tag.
    static let truncatedTagTcIds: Set<Int> = Set(82...108).union([166, 167, 168, 172, 173, 174])
    /// Valid vectors with a 16-byte key.
    static let shortKeyTcIds: Set<Int> = [163, 164, 165, 166, 167, 168]

    static func groups() throws -> [Wycheproof.MACGroup] {
        let data = try TestSupport.vectorData("wycheproof/hmac_sha256_test.json")
        let file = try JSONDecoder().decode(Wycheproof.File<Wycheproof.MACGroup>.self, from: data)
        #expect(file.testGroups.reduce(0) { $0 + $1.tests.count } == file.numberOfTests)
        return file.testGroups
    }

    @Test("the named refused-on-purpose lists are exactly the file's valid truncated-tag and short-key vectors")
    func namedListsAreCurrent() throws {
        let groups = try Self.groups()
        let truncated = groups.filter { $0.tagSize < 256 }.flatMap { $0.tests.filter { $0.result == "valid" }.map(\.tcId) }
        let short = groups.filter { $0.keySize < 256 }.flatMap { $0.tests.filter { $0.result == "valid" }.map(\.tcId) }
        #expect(Set(truncated) == Self.truncatedTagTcIds)
        #expect(Set(short) == Self.shortKeyTcIds)
    }

    @Test("full-length tags: every verdict matches the vector, and valid MACs are reproduced")
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
        #expect(checked == 87)
    }

    @Test("truncated tags are refused on purpose, including every one Wycheproof marks valid")
    func truncatedTagsRefused() throws {
        var refusedValid: Set<Int> = []
        for group in try Self.groups() where group.tagSize < 256 {
            for test in group.tests {
                let key = try HMACKey(secret: SecureBytes(TestSupport.hex(test.key)), digest: .sha256)
                let tag = TestSupport.hex(test.tag), message = TestSupport.hex(test.msg)
                #expect(!key.isValid(tag, for: message), "tcId \(test.tcId): a \(group.tagSize)-bit tag was accepted")
                if test.result == "valid" {
                    // The truncated tag is a true prefix of the full MAC: only its length refuses it.
                    #expect(try key.authenticationCode(for: message).prefix(tag.count).elementsEqual(tag))
                    refusedValid.insert(test.tcId)
                }
            }
        }
        #expect(refusedValid == Self.truncatedTagTcIds)
    }

    @Test("a JWS whose HS256 MAC is truncated to 128 bits is refused as bad-signature (keys of the truncated vectors)")
    func truncatedJWSRefused() throws {
        for group in try Self.groups() where group.tagSize < 256 && group.keySize >= 256 {
            for test in group.tests where Self.truncatedTagTcIds.contains(test.tcId) {
                let secret = TestSupport.hex(test.key)
                let input = TestSupport.b64(#"{"alg":"HS256"}"#) + "." + TestSupport.b64("wycheproof \(test.tcId)")
                let full = try Base64URL.decode(TokenForge.mac(secret: secret, input))
                let verifier = JWTVerifier(key: try JWTKey.hmac(secret: secret))
                #expect(try verifier.verifyJWS(input + "." + Base64URL.encode(full)).payload.count > 0)
                expectJWTError(.badSignature) { try verifier.verifyJWS(input + "." + Base64URL.encode(full.prefix(16))) }
            }
        }
    }

    @Test("16-byte keys of valid vectors are refused as JWS HS256 keys (raw and as oct JWK)")
    func shortKeysRefusedForJWS() throws {
        var refused: Set<Int> = []
        for group in try Self.groups() where group.keySize < 256 {
            for test in group.tests where Self.shortKeyTcIds.contains(test.tcId) {
                let secret = TestSupport.hex(test.key)
                #expect(secret.count == 16)
                expectJWTError(.invalidKey) { try JWTKey.hmac(secret: secret) }
                expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","k":"\#(Base64URL.encode(secret))"}"#) }
                refused.insert(test.tcId)
            }
        }
        #expect(refused == Self.shortKeyTcIds)
    }
}
