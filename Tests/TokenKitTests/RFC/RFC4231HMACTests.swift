import Testing
import TokenKit
import TokenKitCrypto

/// RFC 4231 §4.3 (test case 2) known answers for HMAC-SHA-256/384/512: pins that each HS*
/// key really uses its own digest (a key set up with the wrong or no digest would still
/// round-trip with itself, so only a known answer catches it).
@Suite("RFC 4231 HMAC known answers")
struct RFC4231HMACTests {
    static let message = Array("what do ya want for nothing?".utf8)
    static let answers: [(MessageDigest, String)] = [
        (.sha256, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (.sha384, "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"),
        (.sha512, "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
    ]

    @Test("HMACKey computes the RFC 4231 test case 2 MAC for each digest")
    func knownAnswers() throws {
        for (digest, expected) in Self.answers {
            let key = try HMACKey(secret: SecureBytes(Array("Jefe".utf8)), digest: digest)
            #expect(try key.authenticationCode(for: Self.message) == TestSupport.hex(expected), "\(digest.name)")
            #expect(key.isValid(TestSupport.hex(expected), for: Self.message))
        }
    }

    @Test("HS256/HS384/HS512 signatures have the digest's length and differ from each other")
    func jwsLengths() throws {
        let key = try JWTKey.hmac(secret: [UInt8](repeating: 0x0b, count: 64))
        var signatures: Set<[UInt8]> = []
        for (algorithm, length) in [(JWTAlgorithm.hs256, 32), (.hs384, 48), (.hs512, 64)] {
            let token = try JWTSigner(key: key, algorithm: algorithm).signJWS(payload: Self.message, header: JWTHeaderFields(type: nil))
            let signature = try Base64URL.decode(token.split(separator: ".")[2])
            #expect(signature.count == length)
            // Independently: the MAC of the signing input under the same digest.
            let parts = token.split(separator: ".")
            let expected = try HMACKey(secret: SecureBytes([UInt8](repeating: 0x0b, count: 64)), digest: algorithm == .hs256 ? .sha256 : algorithm == .hs384 ? .sha384 : .sha512)
                .authenticationCode(for: Array("\(parts[0]).\(parts[1])".utf8))
            #expect(signature == expected)
            signatures.insert(signature)
        }
        #expect(signatures.count == 3)
    }
}
