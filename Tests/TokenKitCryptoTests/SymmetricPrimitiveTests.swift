import Testing
import TokenKitCrypto
import TokenKitTestSupport

/// Known-answer tests for the symmetric primitives the encrypted file store relies on
/// (AES-256-GCM, scrypt, HKDF-SHA256), and their refusals.
@Suite("Crypto: AES-GCM, scrypt and HKDF known answers")
struct SymmetricPrimitiveTests {
    @Test("AES-256-GCM matches the GCM specification's test case 16 and rejects any change")
    func aesGCM() throws {
        let key = SecureBytes(try Hex.decode("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
        let nonce = try Hex.decode("cafebabefacedbaddecaf888")
        let aad = try Hex.decode("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let plaintext = try Hex.decode("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let box = try AESGCM.seal(SecureBytes(plaintext), key: key, nonce: nonce, additionalData: aad)
        #expect(try box.ciphertext == Hex.decode("522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"))
        #expect(try box.tag == Hex.decode("76fc6ece0f4e1768cddf8853bb2d551b"))
        #expect(try AESGCM.open(box, key: key, nonce: nonce, additionalData: aad).bytes == plaintext)
        var badTag = box
        badTag.tag[15] ^= 1
        #expect(throws: CryptoError.self) { try AESGCM.open(badTag, key: key, nonce: nonce, additionalData: aad) }
        var badText = box
        badText.ciphertext[0] ^= 1
        #expect(throws: CryptoError.self) { try AESGCM.open(badText, key: key, nonce: nonce, additionalData: aad) }
        #expect(throws: CryptoError.self) { try AESGCM.open(box, key: key, nonce: nonce, additionalData: aad + [0]) }
        #expect(throws: CryptoError.self) { try AESGCM.open(box, key: key, nonce: nonce, additionalData: []) }
        #expect(throws: CryptoError.self) { try AESGCM.seal(SecureBytes([1]), key: SecureBytes([1, 2]), nonce: nonce, additionalData: []) }
        #expect(throws: CryptoError.self) { try AESGCM.seal(SecureBytes([1]), key: key, nonce: [1, 2, 3], additionalData: []) }
    }

    @Test("scrypt matches RFC 7914 section 12 and refuses bad parameters")
    func scrypt() throws {
        let out = try Scrypt.deriveKey(
            passphrase: SecureBytes(Array("pleaseletmein".utf8)), salt: Array("SodiumChloride".utf8),
            parameters: .init(logN: 14, r: 8, p: 1), length: 64)
        #expect(try out.bytes == Hex.decode("7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"))
        let small = try Scrypt.deriveKey(passphrase: SecureBytes([]), salt: [], parameters: .init(logN: 4, r: 1, p: 1), length: 64)
        #expect(try small.bytes == Hex.decode("77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"))
        for bad in [Scrypt.Parameters(logN: 0, r: 8, p: 1), .init(logN: 31, r: 8, p: 1), .init(logN: 15, r: 0, p: 1), .init(logN: 15, r: 8, p: 0), .init(logN: 24, r: 64, p: 1)] {
            #expect(throws: CryptoError.self) { try bad.validate() }
        }
    }

    @Test("HKDF-SHA256 matches RFC 5869 test case 1")
    func hkdf() throws {
        let okm = try HKDF.deriveKey(
            inputKey: SecureBytes(try Hex.decode("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b")),
            salt: try Hex.decode("000102030405060708090a0b0c"), info: try Hex.decode("f0f1f2f3f4f5f6f7f8f9"), length: 42)
        #expect(try okm.bytes == Hex.decode("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
    }

    @Test("AES-256-GCM matches the GCM specification's test cases 13 (empty plaintext) and 14 (one zero block)")
    func aesGCMZeroKey() throws {
        let key = SecureBytes([UInt8](repeating: 0, count: 32))
        let nonce = [UInt8](repeating: 0, count: 12)
        let empty = try AESGCM.seal(SecureBytes([]), key: key, nonce: nonce, additionalData: [])
        #expect(empty.ciphertext.isEmpty)
        #expect(try empty.tag == Hex.decode("530f8afbc74536b9a963b4f1c4cb738b"))
        let block = try AESGCM.seal(SecureBytes([UInt8](repeating: 0, count: 16)), key: key, nonce: nonce, additionalData: [])
        #expect(try block.ciphertext == Hex.decode("cea7403d4d606b6e074ec5d3baf39d18"))
        #expect(try block.tag == Hex.decode("d0d1c8a799996bf0265b98b5d48ab919"))
    }

    @Test("HKDF-SHA256 matches RFC 5869 test case 3 (no salt, no info)")
    func hkdfWithoutSaltOrInfo() throws {
        let okm = try HKDF.deriveKey(
            inputKey: SecureBytes(try Hex.decode("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b")), salt: [], info: [], length: 42)
        #expect(try okm.bytes == Hex.decode("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }
}
