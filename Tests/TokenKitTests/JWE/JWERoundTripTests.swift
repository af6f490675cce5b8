import Foundation
import Testing
import TokenKit

/// Every key management algorithm with every content encryption, through TokenKit's own
/// encrypter and decrypter; the header TokenKit writes; fresh randomness per token.
@Suite("JWE: round trips, headers, fresh randomness, nested JWTs")
struct JWERoundTripTests {
    /// A key for `algorithm` (for `dir`, a secret as long as `encryption`'s key).
    static func key(for algorithm: JWEKeyAlgorithm, _ encryption: JWEContentEncryption, curve: JWECurve = .p256) throws -> JWEKey {
        if algorithm == .direct { return try JWEKey.symmetric(secret: [UInt8](repeating: 0x42, count: encryption.keyByteCount)) }
        return try JWEKey.generate(for: algorithm, curve: curve)
    }

    @Test("every alg × every enc decrypts to the exact plaintext", arguments: JWEKeyAlgorithm.all)
    func everyPair(algorithm: JWEKeyAlgorithm) throws {
        for encryption in JWEContentEncryption.all {
            let key = try Self.key(for: algorithm, encryption)
            let recipient = algorithm.isAsymmetric ? try key.publicKey() : key
            let plaintext = Array("héllo \(algorithm) \(encryption) ".utf8) + [0, 255, 10]
            let token = try JWEEncrypter(recipient: recipient, algorithm: algorithm, encryption: encryption).encrypt(plaintext)
            let decrypted = try JWEDecrypter(key: key).decrypt(token)
            #expect(decrypted.plaintext == plaintext, "\(algorithm) \(encryption)")
            #expect(decrypted.header.algorithm == algorithm)
            #expect(decrypted.header.encryption == encryption)
            #expect(token.split(separator: ".", omittingEmptySubsequences: false).count == 5)
        }
    }

    @Test("ECDH-ES works on P-256, P-384, P-521 and X25519, direct and with key wrap", arguments: JWECurve.all)
    func everyCurve(curve: JWECurve) throws {
        for algorithm in [JWEKeyAlgorithm.ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW] {
            let key = try JWEKey.generate(for: algorithm, curve: curve)
            let token = try JWEEncrypter(recipient: try key.publicKey(), algorithm: algorithm, encryption: .a192GCM).encrypt(Array("x".utf8))
            #expect(try JWEDecrypter(key: key).decrypt(token).plaintext == Array("x".utf8), "\(curve) \(algorithm)")
            let header = try JWEHeader(compactJWE: token)
            #expect(header.raw["epk"]?.objectValue?["crv"] == .string(curve.name))
            #expect(header.raw["epk"]?.objectValue?["d"] == nil, "the epk must be public")
        }
    }

    @Test("the protected header holds alg, enc, kid, cty and typ as given, and nothing else but epk")
    func headerFields() throws {
        let key = try JWEKey.generate(for: .ecdhESA256KW, keyID: "recipient-1")
        let encrypter = try JWEEncrypter(recipient: try key.publicKey(), algorithm: .ecdhESA256KW, encryption: .a128CBCHS256)
        let withDefaults = try JWEHeader(compactJWE: try encrypter.encrypt(Array("p".utf8)))
        #expect(withDefaults.keyID == "recipient-1")
        #expect(withDefaults.raw.keys == ["alg", "enc", "kid", "epk"])
        let explicit = try JWEHeader(compactJWE: try encrypter.encrypt(Array("p".utf8), header: JWEHeaderFields(keyID: "other", contentType: "JWT", type: "JWE")))
        #expect(explicit.raw.keys == ["alg", "enc", "kid", "cty", "typ", "epk"])
        #expect(explicit.keyID == "other" && explicit.contentType == "JWT" && explicit.type == "JWE")
        #expect(explicit.isNestedJWT)
    }

    @Test("two encryptions of the same plaintext share no IV, content key, ephemeral key or ciphertext")
    func freshRandomness() throws {
        for algorithm in [JWEKeyAlgorithm.rsaOAEP256, .ecdhES, .ecdhESA128KW, .a256KW, .direct] {
            let key = try Self.key(for: algorithm, .a256GCM)
            let encrypter = try JWEEncrypter(recipient: algorithm.isAsymmetric ? try key.publicKey() : key, algorithm: algorithm)
            let plaintext = Array("same plaintext".utf8)
            let first = try encrypter.encrypt(plaintext), second = try encrypter.encrypt(plaintext)
            let noEncryptedKey = algorithm == .direct || algorithm == .ecdhES
            for index in 1...4 where !(index == 1 && noEncryptedKey) {
                #expect(try TokenForge.part(index, of: first) != TokenForge.part(index, of: second), "\(algorithm) part \(index + 1)")
            }
            if algorithm.name.hasPrefix("ECDH-ES") {
                #expect(try JWEHeader(compactJWE: first).raw["epk"] != JWEHeader(compactJWE: second).raw["epk"])
            }
        }
    }

    @Test("a nested JWT (signed, then encrypted, cty JWT) decrypts and verifies in one call")
    func nestedJWT() throws {
        let signingKey = try JWTKey.generate(for: .es256)
        let signed = try JWTSigner(key: signingKey).sign(JWTClaims(JSONObject([("sub", .string("nested")), ("exp", .number(JSONNumber(1_900_000_000)))])))
        let recipient = try JWEKey.generate(for: .rsaOAEP256)
        let token = try JWEEncrypter(recipient: try recipient.publicKey(), algorithm: .rsaOAEP256).encryptNested(signed)
        let verifier = JWTVerifier(key: try signingKey.publicKey(), options: ValidationOptions(clock: FixedClock(unixTime: 1_800_000_000)))
        let verified = try JWEDecrypter(key: recipient).decryptNested(token, verifier: verifier)
        #expect(verified.claims["sub"] == .string("nested"))
        // Without cty JWT it is not a nested JWT; with another signer it does not verify.
        let plain = try JWEEncrypter(recipient: try recipient.publicKey(), algorithm: .rsaOAEP256).encrypt(Array(signed.utf8))
        expectJWTError(.typeMismatch) { try JWEDecrypter(key: recipient).decryptNested(plain, verifier: verifier) }
        let otherVerifier = JWTVerifier(key: try JWTKey.generate(for: .es256).publicKey(), options: verifier.options)
        expectJWTError(.badSignature) { try JWEDecrypter(key: recipient).decryptNested(token, verifier: otherVerifier) }
    }

    @Test("a plaintext that would make a JWE over 1 MiB is refused by the encrypter; one just under the limit round-trips")
    func sizeLimitOnEncrypt() throws {
        let key = try JWEKey.symmetric(secret: [UInt8](repeating: 1, count: 32))
        let encrypter = try JWEEncrypter(recipient: key, algorithm: .direct)
        expectJWTError(.tooLarge) { try encrypter.encrypt([UInt8](repeating: 0x61, count: 800_000)) }
        let big = [UInt8](repeating: 0x62, count: 700_000)
        let token = try encrypter.encrypt(big)
        #expect(token.utf8.count > 900_000 && token.utf8.count <= 1024 * 1024)
        #expect(try JWEDecrypter(key: key).decrypt(token).plaintext == big)
    }

    @Test("a JWE given to a JWS verifier is refused as malformed, saying to decrypt it first")
    func jweGivenToVerifier() throws {
        let key = try JWEKey.generate(for: .rsaOAEP256)
        let token = try JWEEncrypter(recipient: try key.publicKey(), algorithm: .rsaOAEP256).encrypt(Array("{}".utf8))
        let verifier = JWTVerifier(key: try JWTKey.generate(for: .es256).publicKey())
        let error = expectJWTError(.malformed) { try verifier.verify(token) }
        #expect(error?.reason.contains("decrypt it first") == true, "\(error?.reason ?? "")")
    }
}
