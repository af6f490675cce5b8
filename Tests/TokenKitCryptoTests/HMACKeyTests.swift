import Testing
import TokenKitCrypto
import TokenKitTestSupport

/// RFC 4231 known answers for the wrapper's `HMACKey` (each digest really is the one asked
/// for: a key set up with the wrong digest would still round-trip with itself, so only a
/// known answer catches it), and its refusals of altered and truncated MACs.
@Suite("Crypto: HMACKey known answers (RFC 4231)")
struct HMACKeyTests {
    /// RFC 4231 §4.3 (test case 2): key "Jefe".
    static let message = Array("what do ya want for nothing?".utf8)
    static let answers: [(MessageDigest, String)] = [
        (.sha256, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (.sha384, "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"),
        (.sha512, "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
    ]

    @Test("Test case 2: the MAC for each digest, and isValid accepts exactly it")
    func testCase2() throws {
        for (digest, expected) in Self.answers {
            let key = try HMACKey(secret: SecureBytes(Array("Jefe".utf8)), digest: digest)
            #expect(try key.authenticationCode(for: Self.message) == Hex.decode(expected), "\(digest.name)")
            #expect(try key.isValid(Hex.decode(expected), for: Self.message))
        }
    }

    @Test("Test case 6: a key longer than the block size is hashed first (SHA-256, SHA-512)")
    func testCase6() throws {
        let secret = SecureBytes([UInt8](repeating: 0xAA, count: 131))
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        let sha256 = try HMACKey(secret: secret, digest: .sha256)
        #expect(try sha256.authenticationCode(for: message) == Hex.decode("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"))
        let sha512 = try HMACKey(secret: secret, digest: .sha512)
        #expect(try sha512.authenticationCode(for: message) == Hex.decode(
            "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"))
    }

    @Test("isValid refuses a changed bit, a truncated or extended MAC, another message and another digest's MAC")
    func refusals() throws {
        let key = try HMACKey(secret: SecureBytes(Array("Jefe".utf8)), digest: .sha256)
        let mac = try Hex.decode(Self.answers[0].1)
        for index in [0, 15, 31] {
            var changed = mac
            changed[index] ^= 0x01
            #expect(!key.isValid(changed, for: Self.message))
        }
        #expect(!key.isValid(Array(mac.prefix(16)), for: Self.message))
        #expect(!key.isValid(mac + [0], for: Self.message))
        #expect(!key.isValid([UInt8](), for: Self.message))
        #expect(!key.isValid(mac, for: Self.message + [0]))
        let sha384MAC = try Hex.decode(Self.answers[1].1)
        #expect(!key.isValid(sha384MAC, for: Self.message))
    }

    @Test("Many MACs from many tasks agree with one computed alone (pooled contexts are not shared)")
    func concurrentUse() async throws {
        let key = try HMACKey(secret: SecureBytes(Array("Jefe".utf8)), digest: .sha384)
        let expected = try Hex.decode(Self.answers[1].1)
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for _ in 0..<64 {
                group.addTask { (0..<50).allSatisfy { _ in key.isValid(expected, for: Self.message) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }
}
