import Testing
import TokenKit
import TokenKitCrypto

/// Each HS* algorithm signs with its own digest (RFC 4231 test case 2's message through the
/// JWS layer). The wrapper's `HMACKey` known answers are in TokenKitCryptoTests.
@Suite("RFC 4231 HMAC: HS* sign with their own digest")
struct RFC4231HMACTests {
    static let message = Array("what do ya want for nothing?".utf8)

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
