import Foundation
import Testing
import TokenKitCrypto
import TokenKitTestSupport

/// Known answers and refusals of the primitives JWE is built from: AES key wrap (RFC 3394),
/// AES-CBC-HMAC-SHA2 (RFC 7518 §5.2), AES-128-GCM, the Concat KDF and ECDH (RFC 7518
/// Appendix C), X25519 (RFC 7748 §6.1) and RSA-OAEP.
@Suite("Crypto: JWE primitives (key wrap, CBC-HMAC, ECDH, Concat KDF, RSA-OAEP)")
struct JWEPrimitiveTests {
    /// RFC 7518 Appendix B: the plaintext, IV and additional data of all three test cases.
    static let cbcPlaintext = Array("A cipher system must not be required to be secret, and it must be able to fall into the hands of the enemy without inconvenience".utf8)
    static let cbcIV: [UInt8] = [0x1a, 0xf3, 0x8c, 0x2d, 0xc2, 0xb9, 0x6f, 0xfd, 0xd8, 0x66, 0x94, 0x09, 0x23, 0x41, 0xbc, 0x04]
    static let cbcAAD = Array("The second principle of Auguste Kerckhoffs".utf8)

    @Test("AES key wrap matches RFC 3394 §4.1 (128-bit KEK) and §4.6 (256-bit KEK, 256-bit key), and unwraps back")
    func keyWrapKnownAnswers() throws {
        let kek128 = SecureBytes(try Hex.decode("000102030405060708090A0B0C0D0E0F"))
        let key128 = SecureBytes(try Hex.decode("00112233445566778899AABBCCDDEEFF"))
        let wrapped128 = try AESKeyWrap.wrap(key128, keyEncryptionKey: kek128)
        #expect(try wrapped128 == Hex.decode("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"))
        #expect(try AESKeyWrap.unwrap(wrapped128, keyEncryptionKey: kek128).bytes == key128.bytes)
        let kek256 = SecureBytes(try Hex.decode("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"))
        let key256 = SecureBytes(try Hex.decode("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F"))
        #expect(try AESKeyWrap.wrap(key256, keyEncryptionKey: kek256)
            == Hex.decode("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"))
    }

    @Test("AES key unwrap: a wrong KEK, a flipped bit and a wrong length all fail with the one error")
    func keyUnwrapFailuresAreOne() throws {
        let kek = SecureBytes([UInt8](repeating: 7, count: 16))
        let wrapped = try AESKeyWrap.wrap(SecureBytes([UInt8](repeating: 1, count: 32)), keyEncryptionKey: kek)
        var flipped = wrapped
        flipped[9] ^= 0x01
        let failures: [() throws -> SecureBytes] = [
            { try AESKeyWrap.unwrap(wrapped, keyEncryptionKey: SecureBytes([UInt8](repeating: 8, count: 16))) },
            { try AESKeyWrap.unwrap(flipped, keyEncryptionKey: kek) },
            { try AESKeyWrap.unwrap(Array(wrapped.dropLast(8)) + [0, 0, 0, 0], keyEncryptionKey: kek) },
            { try AESKeyWrap.unwrap(Array(wrapped.prefix(16)), keyEncryptionKey: kek) },
        ]
        for failure in failures {
            #expect(throws: CryptoError(AESKeyWrap.unwrapFailure)) { _ = try failure() }
        }
    }

    @Test("AES-CBC-HMAC matches RFC 7518 Appendix B.1 (A128CBC-HS256) and B.3 (A256CBC-HS512)")
    func cbcHMACKnownAnswers() throws {
        let k128 = SecureBytes((0..<32).map { UInt8($0) })
        let b1 = try AESCBCHMAC.seal(Self.cbcPlaintext, key: k128, iv: Self.cbcIV, additionalData: Self.cbcAAD)
        #expect(try b1.ciphertext == Hex.decode("c80edfa32ddf39d5ef00c0b468834279a2e46a1b8049f792f76bfe54b903a9c9a94ac9b47ad2655c5f10f9aef71427e2fc6f9b3f399a221489f16362c703233609d45ac69864e3321cf82935ac4096c86e133314c54019e8ca7980dfa4b9cf1b384c486f3a54c51078158ee5d79de59fbd34d848b3d69550a67646344427ade54b8851ffb598f7f80074b9473c82e2db"))
        #expect(try b1.tag == Hex.decode("652c3fa36b0a7c5b3219fab3a30bc1c4"))
        #expect(try AESCBCHMAC.open(ciphertext: b1.ciphertext, tag: b1.tag, key: k128, iv: Self.cbcIV, additionalData: Self.cbcAAD).bytes == Self.cbcPlaintext)
        let k256 = SecureBytes((0..<64).map { UInt8($0) })
        let b3 = try AESCBCHMAC.seal(Self.cbcPlaintext, key: k256, iv: Self.cbcIV, additionalData: Self.cbcAAD)
        #expect(try b3.ciphertext == Hex.decode("4affaaadb78c31c5da4b1b590d10ffbd3dd8d5d302423526912da037ecbcc7bd822c301dd67c373bccb584ad3e9279c2e6d12a1374b77f077553df829410446b36ebd97066296ae6427ea75c2e0846a11a09ccf5370dc80bfecbad28c73f09b3a3b75e662a2594410ae496b2e2e6609e31e6e02cc837f053d21f37ff4f51950bbe2638d09dd7a4930930806d0703b1f6"))
        #expect(try b3.tag == Hex.decode("4dd3b4c088a7f45c216839645b2012bf2e6269a8c56a816dbc1b267761955bc5"))
    }

    @Test("AES-CBC-HMAC: wrong tag, wrong AAD, wrong key and bad padding fail alike; truncated tags are refused")
    func cbcHMACRefusals() throws {
        let key = SecureBytes((0..<32).map { UInt8($0) })
        let sealed = try AESCBCHMAC.seal(Self.cbcPlaintext, key: key, iv: Self.cbcIV, additionalData: Self.cbcAAD)
        var badTag = sealed.tag
        badTag[15] ^= 1
        let one = CryptoError(AESCBCHMAC.failure)
        #expect(throws: one) { try AESCBCHMAC.open(ciphertext: sealed.ciphertext, tag: badTag, key: key, iv: Self.cbcIV, additionalData: Self.cbcAAD) }
        #expect(throws: one) { try AESCBCHMAC.open(ciphertext: sealed.ciphertext, tag: sealed.tag, key: key, iv: Self.cbcIV, additionalData: []) }
        #expect(throws: one) {
            try AESCBCHMAC.open(ciphertext: sealed.ciphertext, tag: sealed.tag, key: SecureBytes([UInt8](repeating: 9, count: 32)), iv: Self.cbcIV, additionalData: Self.cbcAAD)
        }
        // Bad padding behind a valid tag: encrypt a block whose last byte is not valid PKCS#7,
        // with padding disabled on our side, and MAC it correctly (the MAC key is K's first half).
        let macKey = try HMACKey(secret: SecureBytes((0..<16).map { UInt8($0) }), digest: .sha256)
        let unpadded = try AESCBCHMAC.seal([UInt8](repeating: 0x41, count: 15), key: key, iv: Self.cbcIV, additionalData: [])
        // The last ciphertext block decrypts to 15 × 'A' + 0x01: valid. Flip the IV's last byte
        // so that it decrypts to 0x00 instead: invalid padding, then re-MAC with the right key.
        var iv = Self.cbcIV
        iv[15] ^= 0x01
        let al: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
        let tag = Array(try macKey.authenticationCode(forConcatenationOf: [[], iv, unpadded.ciphertext, al]).bytes.prefix(16))
        #expect(throws: one) { try AESCBCHMAC.open(ciphertext: unpadded.ciphertext, tag: tag, key: key, iv: iv, additionalData: []) }
        #expect(throws: CryptoError.self) {
            try AESCBCHMAC.open(ciphertext: sealed.ciphertext, tag: Array(sealed.tag.prefix(8)), key: key, iv: Self.cbcIV, additionalData: Self.cbcAAD)
        }
    }

    @Test("AES-128-GCM matches the GCM specification's test case 4; 192-bit keys work; other key sizes are refused")
    func gcmKeySizes() throws {
        let key = SecureBytes(try Hex.decode("feffe9928665731c6d6a8f9467308308"))
        let nonce = try Hex.decode("cafebabefacedbaddecaf888")
        let aad = try Hex.decode("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let plaintext = try Hex.decode("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let box = try AESGCM.seal(SecureBytes(plaintext), key: key, nonce: nonce, additionalData: aad)
        #expect(try box.ciphertext == Hex.decode("42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"))
        #expect(try box.tag == Hex.decode("5bc94fbc3221a5db94fae95ae7121a47"))
        let key192 = SecureBytes([UInt8](repeating: 3, count: 24))
        let sealed = try AESGCM.seal(SecureBytes(plaintext), key: key192, nonce: nonce, additionalData: aad)
        #expect(try AESGCM.open(sealed, key: key192, nonce: nonce, additionalData: aad).bytes == plaintext)
        #expect(throws: CryptoError.self) { try AESGCM.seal(SecureBytes(plaintext), key: SecureBytes([UInt8](repeating: 3, count: 20)), nonce: nonce, additionalData: aad) }
    }

    @Test("ECDH P-256 and the Concat KDF reproduce RFC 7518 Appendix C's derived key")
    func concatKDFAppendixC() throws {
        let alice = try PKey(components: .ec(curve: .p256, x: try b64url("gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0"),
                                              y: try b64url("SLW_xSffzlPWrHEVI30DHM_4egVwt3NQqeUD7nMFpps"),
                                              d: SecureBytes(try b64url("0_NxaRPUMQoAJt50Gz8YiTr8gRTwyEaCumd-MToTmIo"))))
        let bob = try PKey(components: .ec(curve: .p256, x: try b64url("weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ"),
                                            y: try b64url("e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck"),
                                            d: SecureBytes(try b64url("VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw"))))
        let z = try alice.sharedSecret(with: try bob.publicKey())
        #expect(try z.bytes == Hex.decode("9e56d91d817135d372834283bf84269cfb316ea3da806a48f6daa7798cfe90c4"))
        #expect(try bob.sharedSecret(with: try alice.publicKey()).bytes == z.bytes)
        func field(_ text: String) -> [UInt8] { [0, 0, 0, UInt8(text.utf8.count)] + Array(text.utf8) }
        let otherInfo = field("A128GCM") + field("Alice") + field("Bob") + [0, 0, 0, 128]
        let derived = try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: otherInfo, length: 16)
        #expect(derived.bytes == (try b64url("VqqN6vgjbSBcIijNcacQGg")))
    }

    @Test("the Concat KDF's two-block outputs (48 and 64 bytes) match OpenSSL's SSKDF (openssl kdf … SSKDF)")
    func concatKDFTwoBlocks() throws {
        let z = SecureBytes(try Hex.decode("9e56d91d817135d372834283bf84269cfb316ea3da806a48f6daa7798cfe90c4"))
        func field(_ text: String) -> [UInt8] { [0, 0, 0, UInt8(text.utf8.count)] + Array(text.utf8) }
        let expected = [
            48: "60597bbf9eb991c5162f19f3728c27440a74602fa26ace48796b6a9322dd13cbc26d50be3342992dccb45c81a7b5d5b7",
            64: "3986aa79f6396420e580e5d3890f623fee5d4522307929eb99ee3425a001ecc175b1754e3fb644ce825034b562523e9a8806bca8d76afa861e9b79515803225d",
        ]
        for (length, enc) in [(48, "A192CBC-HS384"), (64, "A256CBC-HS512")] {
            let otherInfo = field(enc) + field("Alice") + field("Bob") + [0, 0, UInt8((length * 8) >> 8), UInt8((length * 8) & 0xFF)]
            #expect(try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: otherInfo, length: length).bytes == Hex.decode(expected[length] ?? ""))
        }
        #expect(throws: CryptoError.self) { try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: [], length: 65) }
    }

    @Test("an EC peer built on the recipient's group agrees like one built from its coordinates, and an off-curve or mis-sized point is refused")
    func ecPeerOnRecipientGroup() throws {
        for curve in [ECCurve.p256, .p384, .p521] {
            let recipient = try PKey.generate(.ec(curve))
            let sender = try PKey.generate(.ec(curve))
            guard case .ec(_, let x, let y, _) = try sender.components(includePrivate: false) else { Issue.record("not EC"); continue }
            let peer = try recipient.ecPeer(x: x, y: y)
            #expect(peer.type == .ec(curve))
            #expect(!peer.isPrivate)
            #expect(try recipient.sharedSecret(with: peer).bytes == sender.sharedSecret(with: try recipient.publicKey()).bytes)
            var offCurve = y
            offCurve[offCurve.count - 1] ^= 1
            #expect(throws: CryptoError.self) { try recipient.ecPeer(x: x, y: offCurve) }
            #expect(throws: CryptoError.self) { try recipient.ecPeer(x: Array(x.dropFirst()), y: y) }
        }
        let edwards = try PKey.generate(.ed25519)
        #expect(throws: CryptoError.self) { try edwards.ecPeer(x: [1], y: [2]) }
    }

    @Test("X25519 matches RFC 7748 §6.1 and refuses a small-order peer and a key of another type")
    func x25519() throws {
        let alice = try PKey(components: .x25519(x: try Hex.decode("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"),
                                                 d: SecureBytes(try Hex.decode("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))))
        let bob = try PKey(components: .x25519(x: try Hex.decode("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"), d: nil))
        #expect(alice.type == .x25519)
        #expect(try alice.sharedSecret(with: bob).bytes == Hex.decode("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"))
        // u = 0 is a point of small order: the shared secret would be all zeros.
        let smallOrder = try PKey(components: .x25519(x: [UInt8](repeating: 0, count: 32), d: nil))
        #expect(throws: CryptoError.self) { try alice.sharedSecret(with: smallOrder) }
        let p256 = try PKey.generate(.ec(.p256))
        #expect(throws: CryptoError.self) { try alice.sharedSecret(with: try p256.publicKey()) }
        #expect(throws: CryptoError.self) { try p256.sharedSecret(with: try PKey.generate(.ec(.p384)).publicKey()) }
        #expect(throws: CryptoError.self) { try bob.sharedSecret(with: alice) }  // a public key cannot agree
    }

    @Test("an EC point off its curve is refused by the key admission gate (the invalid-curve attack)")
    func offCurvePointRefused() throws {
        let key = try PKey.generate(.ec(.p256))
        guard case .ec(_, let x, var y, _) = try key.components(includePrivate: false) else { Issue.record("not EC"); return }
        y[31] ^= 0x01
        #expect(throws: CryptoError.self) { try PKey(components: .ec(curve: .p256, x: x, y: y, d: nil)) }
    }

    @Test("RSA-OAEP and RSA-OAEP-256 round-trip; every decryption failure is the same error")
    func rsaOAEP() throws {
        let key = try PKey.generate(.rsa)
        let other = try PKey.generate(.rsa)
        let cek = SecureBytes([UInt8](repeating: 0x5A, count: 32))
        for digest in [OAEPDigest.sha1, .sha256] {
            let encrypted = try key.publicKey().encryptOAEP(cek, digest: digest)
            #expect(encrypted.count == 256)
            #expect(try key.decryptOAEP(encrypted, digest: digest).bytes == cek.bytes)
            let failure = CryptoError("RSA-OAEP decryption failed")
            var flipped = encrypted
            flipped[100] ^= 1
            #expect(throws: failure) { try other.decryptOAEP(encrypted, digest: digest) }
            #expect(throws: failure) { try key.decryptOAEP(flipped, digest: digest) }
            #expect(throws: failure) { try key.decryptOAEP(Array(encrypted.dropLast()), digest: digest) }
            #expect(throws: failure) { try key.decryptOAEP(encrypted, digest: digest == .sha1 ? .sha256 : .sha1) }
        }
        #expect(throws: CryptoError.self) { try PKey.generate(.ec(.p256)).encryptOAEP(cek, digest: .sha256) }
    }

    private func b64url(_ text: String) throws -> [UInt8] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { throw CryptoError("bad base64url in a test vector") }
        return Array(data)
    }
}
