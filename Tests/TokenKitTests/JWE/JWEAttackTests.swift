import Foundation
import Testing
import TokenKit
import TokenKitCrypto

/// Every JWE refusal the design promises, each on a token whose only defect is the one under
/// test (``TokenForge/jwe(header:plaintext:encryptedKey:)`` encrypts it correctly otherwise),
/// and the one error that wrong keys, bad tags, bad padding and failed unwraps share.
@Suite("JWE attacks: refused algorithms and headers, invalid curves, no decryption oracle")
struct JWEAttackTests {
    static func decrypter() throws -> JWEDecrypter { try JWEDecrypter(key: try TokenForge.jweKey()) }

    @Test("the forge's control token decrypts (so each refusal below comes from its one defect)")
    func controlDecrypts() throws {
        for enc in ["A256GCM", "A128CBC-HS256"] {
            let token = try TokenForge.jwe(header: #"{"alg":"dir","enc":"\#(enc)","crit_":1}"#)
            #expect(try Self.decrypter().decrypt(token).plaintext == Array("forged".utf8))
        }
    }

    @Test("RSA1_5 is refused, naming Bleichenbacher's attack")
    func rsa15() throws {
        let error = expectJWTError(.unsupportedAlgorithm) {
            try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"RSA1_5","enc":"A256GCM"}"#, encryptedKey: [1, 2, 3]))
        }
        #expect(error?.reason.contains("Bleichenbacher") == true)
    }

    @Test("PBES2-* is refused, naming the iteration-count denial of service", arguments: ["PBES2-HS256+A128KW", "PBES2-HS384+A192KW", "PBES2-HS512+A256KW"])
    func pbes2(alg: String) throws {
        let error = expectJWTError(.unsupportedAlgorithm) {
            try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"\#(alg)","enc":"A256GCM","p2s":"c2FsdHNhbHQ","p2c":2000000000}"#, encryptedKey: [1]))
        }
        #expect(error?.reason.contains("iteration count") == true)
    }

    @Test("zip is refused before anything is decrypted or decompressed")
    func zip() throws {
        expectJWTError(.compressionRefused) { try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM","zip":"DEF"}"#)) }
    }

    @Test("any crit is refused, even one naming a member that is present")
    func crit() throws {
        expectJWTError(.unsupportedCritical) {
            try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM","crit":["exp"],"exp":1}"#))
        }
    }

    @Test("alg none is refused as unsecured; a JWS handed to decrypt is refused as such")
    func noneAndJWS() throws {
        for alg in ["none", "None", "NONE"] {
            expectJWTError(.unsecured) { try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"\#(alg)","enc":"A256GCM"}"#)) }
        }
        let jws = try JWTSigner(key: try JWTKey.hmac(secret: TokenForge.jweSecret)).signJWS(payload: Array("hello".utf8))
        let error = expectJWTError(.malformed) { try Self.decrypter().decrypt(jws) }
        #expect(error?.reason.contains("JWS") == true)
        // A five-part token whose header names a JWS algorithm is refused too.
        let hs = expectJWTError(.unsupportedAlgorithm) { try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"HS256","enc":"A256GCM"}"#)) }
        #expect(hs?.reason.contains("JWS signature algorithm") == true)
    }

    @Test("an enc outside the six (A128CTR, none) and a missing enc are refused")
    func unknownEnc() throws {
        for enc in ["A128CTR", "none", "A256GCMKW"] {
            expectJWTError(.unsupportedAlgorithm) { try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"\#(enc)"}"#)) }
        }
        let missing = expectJWTError(.malformed) { try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"dir"}"#)) }
        #expect(missing?.reason.contains(#"no "enc""#) == true)
    }

    @Test("a GCM tag that is not 16 bytes is refused as such", arguments: [0, 4, 8, 12, 15, 17, 32])
    func gcmTagLength(length: Int) throws {
        let token = try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM"}"#)
        let tag = try TokenForge.part(4, of: token)
        let odd = TokenForge.replacingPart(4, of: token, with: Array((tag + tag + tag).prefix(length)))
        let error = expectJWTError(.malformed) { try Self.decrypter().decrypt(odd) }
        #expect(error?.reason.contains("GCM tag must be 16 bytes") == true)
    }

    @Test("a truncated (or padded) CBC-HS tag is refused as such", arguments: [0, 8, 15, 17, 32])
    func cbcTagTruncated(length: Int) throws {
        let token = try TokenForge.jwe(header: #"{"alg":"dir","enc":"A128CBC-HS256"}"#)
        let tag = try TokenForge.part(4, of: token)
        let odd = TokenForge.replacingPart(4, of: token, with: Array((tag + tag).prefix(length)))
        let error = expectJWTError(.malformed) { try Self.decrypter().decrypt(odd) }
        #expect(error?.reason.contains("truncated tags are refused") == true)
    }

    @Test("a token over the 1 MiB limit is refused before parsing; the limit is configurable")
    func tooLarge() throws {
        let token = try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM"}"#, plaintext: [UInt8](repeating: 0x61, count: 786_420))
        #expect(token.utf8.count > 1024 * 1024)
        expectJWTError(.tooLarge) { try Self.decrypter().decrypt(token) }
        let lenient = try JWEDecrypter(key: try TokenForge.jweKey(), options: JWEDecryptionOptions(limits: ParsingLimits(maxTokenBytes: 2 * 1024 * 1024)))
        #expect(try lenient.decrypt(token).plaintext.count == 786_420)
    }

    @Test("with dir or ECDH-ES the encrypted key must be empty")
    func dirWithEncryptedKey() throws {
        expectJWTError(.malformed) { try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM"}"#, encryptedKey: [0])) }
    }

    @Test("a key that does not fit the alg is refused before any decryption")
    func keyAlgMismatch() throws {
        let rsa = try JWEKey.generate(for: .rsaOAEP)
        let ec = try JWEKey.generate(for: .ecdhES)
        let ecToken = try JWEEncrypter(recipient: try ec.publicKey(), algorithm: .ecdhES).encrypt(Array("x".utf8))
        expectJWTError(.algorithmNotAllowed) { try JWEDecrypter(key: rsa).decrypt(ecToken) }
        expectJWTError(.algorithmNotAllowed) { try Self.decrypter().decrypt(ecToken) }
        let a128 = try JWEKey.symmetric(secret: [UInt8](repeating: 1, count: 16))
        let kwToken = try JWEEncrypter(recipient: try JWEKey.symmetric(secret: [UInt8](repeating: 1, count: 32)), algorithm: .a256KW).encrypt(Array("x".utf8))
        expectJWTError(.algorithmNotAllowed) { try JWEDecrypter(key: a128).decrypt(kwToken) }
        expectJWTError(.algorithmNotAllowed) { try JWEDecrypter(key: ec).decrypt(kwToken) }
        // dir: the secret must be exactly the enc's key length.
        expectJWTError(.algorithmNotAllowed) { try Self.decrypter().decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A128GCM"}"#)) }
        // The encrypter refuses the same misfits.
        expectJWTError(.algorithmNotAllowed) { try JWEEncrypter(recipient: try rsa.publicKey(), algorithm: .ecdhES) }
        expectJWTError(.algorithmNotAllowed) { try JWEEncrypter(recipient: a128, algorithm: .direct, encryption: .a256GCM) }
    }

    @Test("an epk that is not on its curve is refused (the invalid-curve attack)")
    func epkOffCurve() throws {
        let key = try JWEKey.generate(for: .ecdhESA128KW)
        let token = try JWEEncrypter(recipient: try key.publicKey(), algorithm: .ecdhESA128KW).encrypt(Array("x".utf8))
        var header = try JWEHeader(compactJWE: token).raw
        guard var epk = header["epk"]?.objectValue, let y = epk["y"]?.stringValue else { Issue.record("no epk"); return }
        var yBytes = try Base64URL.decode(y)
        yBytes[yBytes.count - 1] ^= 0x01
        epk["y"] = .string(Base64URL.encode(yBytes))
        header["epk"] = .object(epk)
        let forged = TokenForge.replacingPart(0, of: token, with: Array(JSONValue.object(header).jsonText.utf8))
        let error = expectJWTError(.invalidEphemeralKey) { try JWEDecrypter(key: key).decrypt(forged) }
        #expect(error?.reason.contains("not a valid EC P-256 public key") == true)
    }

    @Test("an epk on another curve than the recipient's key, a private epk, and a missing epk are refused")
    func epkWrongCurve() throws {
        let key = try JWEKey.generate(for: .ecdhES, curve: .p256)
        for other in [JWECurve.p384, .p521, .x25519] {
            let otherKey = try JWEKey.generate(for: .ecdhES, curve: other)
            let epk = try otherKey.publicKey().jwkObject()
            let header = #"{"alg":"ECDH-ES","enc":"A256GCM","epk":\#(JSONValue.object(epk).jsonText)}"#
            let error = expectJWTError(.invalidEphemeralKey) { try JWEDecrypter(key: key).decrypt(try TokenForge.jwe(header: header)) }
            #expect(error?.reason.contains("but the recipient's key is EC P-256") == true, "\(other)")
        }
        let privateEPK = JSONValue.object(try JWEKey.generate(for: .ecdhES).jwkObject(includingPrivate: true)).jsonText
        expectJWTError(.invalidEphemeralKey) { try JWEDecrypter(key: key).decrypt(try TokenForge.jwe(header: #"{"alg":"ECDH-ES","enc":"A256GCM","epk":\#(privateEPK)}"#)) }
        expectJWTError(.malformed) { try JWEDecrypter(key: key).decrypt(try TokenForge.jwe(header: #"{"alg":"ECDH-ES","enc":"A256GCM"}"#)) }
    }

    @Test("wrong key, bad tag, altered ciphertext, IV or header, bad padding and failed unwrap: one identical error")
    func noOracle() throws {
        var failures: [(String, () throws -> DecryptedJWE)] = []
        for algorithm in [JWEKeyAlgorithm.rsaOAEP, .rsaOAEP256, .ecdhES, .ecdhESA256KW, .a128KW, .direct] {
            for encryption in [JWEContentEncryption.a128GCM, .a128CBCHS256] {
                let key = try JWERoundTripTests.key(for: algorithm, encryption)
                let wrong = try JWERoundTripTests.key(for: algorithm, encryption).withRandomSecretIfSymmetric(encryption)
                let token = try JWEEncrypter(recipient: algorithm.isAsymmetric ? try key.publicKey() : key, algorithm: algorithm, encryption: encryption)
                    .encrypt(Array("secret payload".utf8))
                let label = "\(algorithm) \(encryption)"
                failures.append(("\(label) wrong key", { try JWEDecrypter(key: wrong).decrypt(token) }))
                for index in 1...4 {
                    var part = try TokenForge.part(index, of: token)
                    guard !part.isEmpty else { continue }
                    part[part.count / 2] ^= 0x40
                    let altered = TokenForge.replacingPart(index, of: token, with: part)
                    failures.append(("\(label) part \(index + 1) altered", { try JWEDecrypter(key: key).decrypt(altered) }))
                }
                // The header is authenticated: a member added to it breaks the tag.
                var header = try JWEHeader(compactJWE: token).raw
                header["x"] = .string("y")
                let reheadered = TokenForge.replacingPart(0, of: token, with: Array(JSONValue.object(header).jsonText.utf8))
                failures.append(("\(label) header altered", { try JWEDecrypter(key: key).decrypt(reheadered) }))
            }
        }
        failures.append(("CBC bad padding behind a valid tag", { try Self.decrypter().decrypt(try Self.badPadding()) }))
        for (label, attempt) in failures {
            let error = expectJWTError(.decryptionFailed) { try attempt() }
            #expect(error?.reason == "decryption failed", "\(label): \(error?.reason ?? "")")
            #expect(error?.underlyingError == nil, "\(label): nothing may tell the causes apart")
        }
    }

    /// A dir A128CBC-HS256 JWE whose tag is valid but whose plaintext padding is not: the
    /// last ciphertext block is encrypted with padding switched off, then authenticated.
    static func badPadding() throws -> String {
        let protected = Base64URL.encode(Array(#"{"alg":"dir","enc":"A128CBC-HS256"}"#.utf8))
        let good = try TokenForge.jwe(header: #"{"alg":"dir","enc":"A128CBC-HS256"}"#, plaintext: [UInt8](repeating: 0x41, count: 15))
        // 15 × 'A' pads with one 0x01; flipping the IV's last bit makes it decrypt to 0x00.
        var iv = try TokenForge.part(2, of: good)
        iv[15] ^= 0x01
        let ciphertext = try TokenForge.part(3, of: good)
        let aad = Array(protected.utf8)
        let al = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(aad.count * 8) >> (56 - 8 * $0)) }
        let macKey = try HMACKey(secret: SecureBytes(Array(TokenForge.jweSecret.prefix(16))), digest: .sha256)
        let tag = Array(try macKey.authenticationCode(forConcatenationOf: [aad, iv, ciphertext, al]).bytes.prefix(16))
        return [protected, "", Base64URL.encode(iv), Base64URL.encode(ciphertext), Base64URL.encode(tag)].joined(separator: ".")
    }

    @Test("a kid that names another key is refused; the options' allowed algorithms are enforced")
    func kidAndAllowedLists() throws {
        let key = try JWEKey.symmetric(secret: TokenForge.jweSecret, keyID: "mine")
        expectJWTError(.noMatchingKey) { try JWEDecrypter(key: key).decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM","kid":"theirs"}"#)) }
        #expect(try JWEDecrypter(key: key).decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM","kid":"mine"}"#)).plaintext.count == 6)
        let strict = try JWEDecrypter(key: try TokenForge.jweKey(), options: JWEDecryptionOptions(encryptions: [.a128CBCHS256]))
        expectJWTError(.algorithmNotAllowed) { try strict.decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM"}"#)) }
        let onlyKW = try JWEDecrypter(key: try TokenForge.jweKey(), options: JWEDecryptionOptions(algorithms: [.a256KW]))
        expectJWTError(.algorithmNotAllowed) { try onlyKW.decrypt(try TokenForge.jwe(header: #"{"alg":"dir","enc":"A256GCM"}"#)) }
    }

    @Test("a public key cannot make a decrypter, however it was loaded")
    func publicKeyCannotDecrypt() throws {
        let key = try JWEKey.generate(for: .ecdhES)
        expectJWTError(.invalidKey) { try JWEDecrypter(key: try key.publicKey()) }
        expectJWTError(.invalidKey) { try JWEDecrypter(key: try JWEKey(pem: try key.publicKeyPEM())) }
        expectJWTError(.invalidKey) { try JWEDecrypter(key: try JWEKey(jwk: try key.publicKey().jwk())) }
    }
}

extension JWEKey {
    /// For a secret, another random secret of the same use; asymmetric keys are already
    /// random (each call of ``JWEKey/generate(for:curve:keyID:rsaBits:)`` makes a new one).
    func withRandomSecretIfSymmetric(_ encryption: JWEContentEncryption) throws -> JWEKey {
        guard keyType == "oct" else { return self }
        let length = algorithms.contains(.a128KW) ? 16 : encryption.keyByteCount
        return try JWEKey.symmetric(secret: (0..<length).map { _ in UInt8.random(in: 0...255) })
    }
}
