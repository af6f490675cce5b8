import Testing
import TokenKit

/// RFC 7520 §5: the cookbook's compact JWEs decrypt to the published plaintext where they use
/// supported algorithms (§5.2 RSA-OAEP, §5.4 ECDH-ES+A128KW on P-384, §5.5 ECDH-ES on P-256 with
/// A128CBC-HS256, §5.6 dir, §5.8 A128KW) and are refused with the designed reason otherwise
/// (§5.1 RSA1_5, §5.3 PBES2, §5.7 A256GCMKW, §5.9 zip).
@Suite("RFC 7520 cookbook encryptions")
struct RFC7520JWETests {
    static let plaintext = Array(RFC7520JWEVectors.plaintext.utf8)

    @Test("§5.2, §5.4, §5.5, §5.6 and §5.8 decrypt to the published plaintext with the published keys")
    func supportedExamples() throws {
        let examples: [(String, String, String)] = [
            ("5.2 RSA-OAEP + A256GCM", RFC7520JWEVectors.key52, RFC7520JWEVectors.token52),
            ("5.4 ECDH-ES+A128KW (P-384) + A128GCM", RFC7520JWEVectors.key54, RFC7520JWEVectors.token54),
            ("5.5 ECDH-ES (P-256) + A128CBC-HS256", RFC7520JWEVectors.key55, RFC7520JWEVectors.token55),
            ("5.6 dir + A128GCM", RFC7520JWEVectors.key56, RFC7520JWEVectors.token56),
            ("5.8 A128KW + A128GCM", RFC7520JWEVectors.key58, RFC7520JWEVectors.token58),
        ]
        for (label, jwk, token) in examples {
            let key = try JWEKey(jwk: jwk)
            let decrypted = try JWEDecrypter(key: key).decrypt(token)
            #expect(decrypted.plaintext == Self.plaintext, "\(label)")
            #expect(decrypted.header.keyID == key.keyID, "\(label)")
        }
    }

    @Test("§5.1 (RSA1_5), §5.3 (PBES2), §5.7 (A256GCMKW) and §5.9 (zip) are refused with their reasons")
    func refusedExamples() throws {
        let rsa = try JWEKey(jwk: RFC7520JWEVectors.key52)
        let error51 = expectJWTError(.unsupportedAlgorithm) { try JWEDecrypter(key: rsa).decrypt(RFC7520JWEVectors.token51) }
        #expect(error51?.reason.contains("Bleichenbacher") == true)
        let kw = try JWEKey(jwk: RFC7520JWEVectors.key58)
        let error53 = expectJWTError(.unsupportedAlgorithm) { try JWEDecrypter(key: kw).decrypt(RFC7520JWEVectors.token53) }
        #expect(error53?.reason.contains("PBES2") == true)
        expectJWTError(.unsupportedAlgorithm) { try JWEDecrypter(key: kw).decrypt(RFC7520JWEVectors.token57) }
        expectJWTError(.compressionRefused) { try JWEDecrypter(key: kw).decrypt(RFC7520JWEVectors.token59) }
        // §5.1's RSA key itself is usable (with RSA-OAEP); §5.7's key says alg A256GCMKW, which
        // no JWEKey accepts.
        #expect(try JWEKey(jwk: RFC7520JWEVectors.key51).algorithms == [.rsaOAEP, .rsaOAEP256])
        expectJWTError(.invalidKey) { try JWEKey(jwk: RFC7520JWEVectors.key57) }
    }

    @Test("the §5.4 recipient key re-encrypts to itself, and its P-384 epk is checked against that curve")
    func reencrypt54() throws {
        let key = try JWEKey(jwk: RFC7520JWEVectors.key54)
        #expect(key.algorithms.contains(.ecdhESA128KW))
        let token = try JWEEncrypter(recipient: try key.publicKey(), algorithm: .ecdhESA128KW, encryption: .a128GCM).encrypt(Self.plaintext)
        #expect(try JWEDecrypter(key: key).decrypt(token).plaintext == Self.plaintext)
        // §5.5's P-256 key has another kid: refused by kid before any key is used; a P-256 key
        // without a kid gets as far as the epk, which is on P-384.
        let p256 = try JWEKey(jwk: RFC7520JWEVectors.key55)
        expectJWTError(.noMatchingKey) { try JWEDecrypter(key: p256).decrypt(token) }
        expectJWTError(.invalidEphemeralKey) { try JWEDecrypter(key: try JWEKey.generate(for: .ecdhESA128KW)).decrypt(token) }
    }
}
