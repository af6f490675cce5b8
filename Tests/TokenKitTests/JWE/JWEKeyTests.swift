import Foundation
import Testing
import TokenKit

/// JWE keys: which key types serve which algorithms, JWK reading and writing, and key files
/// read for an algorithm (raw secrets for A*KW/dir, PEM or JWK text otherwise).
@Suite("JWE keys: types, JWK, key files")
struct JWEKeyTests {
    @Test("signature-only keys are refused for JWE; X25519, P-256/384/521 and RSA keys are accepted")
    func keyTypes() throws {
        for signing in [try JWTKey.generate(for: .eddsa), try JWTKey.generateEd448(), try JWTKey.generate(for: .es256k)] {
            expectJWTError(.invalidKey) { try JWEKey(pem: try signing.privateKeyPEM()) }
        }
        for curve in JWECurve.all {
            let key = try JWEKey.generate(for: .ecdhES, curve: curve)
            let reloaded = try JWEKey(pem: try key.privateKeyPEM())
            #expect(reloaded.algorithms == [.ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW], "\(curve)")
            #expect(try JWEKey(pem: try key.publicKeyPEM()).isSecret == false)
        }
        #expect(try JWEKey(pem: try JWEKey.generate(for: .rsaOAEP).privateKeyPEM()).algorithms == [.rsaOAEP, .rsaOAEP256])
        expectJWTError(.invalidKey) { try JWEKey.symmetric(secret: [UInt8](repeating: 1, count: 20)) }
        #expect(try JWEKey.symmetric(secret: [UInt8](repeating: 1, count: 16)).algorithms == [.a128KW, .direct])
        #expect(try JWEKey.symmetric(secret: [UInt8](repeating: 1, count: 48)).algorithms == [.direct])
    }

    @Test("an X25519 key is refused for JWS, as a PEM key and in a key file, naming its use")
    func x25519RefusedForJWS() throws {
        let pem = try JWEKey.generate(for: .ecdhES, curve: .x25519).privateKeyPEM()
        let error = expectJWTError(.invalidKey) { try JWTKey(pem: pem) }
        #expect(error?.reason.contains("JWE") == true)
        expectJWTError(.invalidKey) { try KeyFile(contents: Array(pem.utf8), for: .verification) }
        let jwk = try JWEKey.generate(for: .ecdhES, curve: .x25519).publicKey().jwk()
        expectJWTError(.invalidKey) { try JWTKey(jwk: jwk) }
    }

    @Test("JWKs round-trip for every key type, public and private, and keep kid and use enc")
    func jwkRoundTrip() throws {
        var keys = try JWECurve.all.map { try JWEKey.generate(for: .ecdhESA256KW, curve: $0, keyID: "k-\($0)") }
        keys.append(try JWEKey.generate(for: .rsaOAEP256, keyID: "rsa"))
        keys.append(try JWEKey.symmetric(secret: [UInt8](repeating: 9, count: 32), keyID: "oct"))
        for key in keys {
            let privateJWK = try key.jwkObject(includingPrivate: true)
            #expect(privateJWK["use"] == .string("enc"))
            let reloaded = try JWEKey(jwk: JSONValue.object(privateJWK).jsonText)
            #expect(reloaded.keyID == key.keyID && reloaded.algorithms == key.algorithms && reloaded.isSecret)
            if key.keyType != "oct" {
                let publicJWK = try key.publicKey().jwkObject()
                #expect(publicJWK["d"] == nil)
                let token = try JWEEncrypter(recipient: try JWEKey(jwk: JSONValue.object(publicJWK).jsonText), algorithm: key.algorithms.sorted { $0.name < $1.name }[0]).encrypt([1, 2, 3])
                #expect(try JWEDecrypter(key: reloaded).decrypt(token).plaintext == [1, 2, 3])
            }
        }
        #expect(try JWEKey.generate(for: .ecdhES, curve: .x25519).publicKey().jwkObject()["crv"] == .string("X25519"))
    }

    @Test("JWK use, key_ops and alg are enforced; refused algorithms make the key unusable")
    func jwkRules() throws {
        let base = try JWEKey.generate(for: .ecdhES).jwkObject(includingPrivate: true)
        func with(_ name: String, _ value: JSONValue) -> String {
            var object = base
            object[name] = value
            return JSONValue.object(object).jsonText
        }
        expectJWTError(.invalidKey) { try JWEKey(jwk: with("use", .string("sig"))) }
        expectJWTError(.invalidKey) { try JWEKey(jwk: with("key_ops", .array([.string("sign")]))) }
        expectJWTError(.invalidKey) { try JWEKey(jwk: with("alg", .string("RSA1_5"))) }
        expectJWTError(.invalidKey) { try JWEKey(jwk: with("alg", .string("RSA-OAEP"))) }
        expectJWTError(.invalidKey) { try JWEKey(jwk: with("crv", .string("secp256k1"))) }
        #expect(try JWEKey(jwk: with("alg", .string("ECDH-ES+A192KW"))).algorithms == [.ecdhESA192KW])
        let encryptOnly = try JWEKey(jwk: with("key_ops", .array([.string("wrapKey")])))
        expectJWTError(.invalidKey) { try JWEDecrypter(key: encryptOnly) }
        let decryptOnly = try JWEKey(jwk: with("key_ops", .array([.string("unwrapKey")]))).publicKey()
        expectJWTError(.invalidKey) { try JWEEncrypter(recipient: decryptOnly, algorithm: .ecdhES) }
        // An oct key whose alg names an enc of its length is a dir key (RFC 7520 §5.6).
        let dir = try JWEKey(jwk: #"{"kty":"oct","alg":"A128GCM","k":"XctOhJAkA-pD9Lh7ZgW_2A"}"#)
        #expect(dir.algorithms == [.direct])
        expectJWTError(.invalidKey) { try JWEKey(jwk: #"{"kty":"oct","alg":"A256GCM","k":"XctOhJAkA-pD9Lh7ZgW_2A"}"#) }
    }

    @Test("key files are read for an algorithm: raw secrets for A*KW and dir, PEM or JWK text otherwise")
    func keyFiles() throws {
        #expect(try JWEKey(keyFileContents: [UInt8](repeating: 0x20, count: 16), for: .a128KW).algorithms.contains(.a128KW))
        #expect(try JWEKey(keyFileContents: [UInt8](repeating: 0x0A, count: 64), for: .direct).algorithms == [.direct])
        expectJWTError(.algorithmNotAllowed) { try JWEKey(keyFileContents: [UInt8](repeating: 1, count: 17), for: .a128KW) }
        expectJWTError(.algorithmNotAllowed) { try JWEKey(keyFileContents: [UInt8](repeating: 1, count: 32), for: .a128KW) }
        expectJWTError(.algorithmNotAllowed) { try JWEKey(keyFileContents: [UInt8](repeating: 1, count: 20), for: .direct) }
        let rsa = try JWEKey.generate(for: .rsaOAEP)
        #expect(try JWEKey(keyFileContents: Array(try rsa.privateKeyPEM().utf8), for: .rsaOAEP256).isSecret)
        #expect(try JWEKey(keyFileContents: Array(try rsa.publicKey().jwk().utf8), for: .rsaOAEP).isSecret == false)
        expectJWTError(.algorithmNotAllowed) { try JWEKey(keyFileContents: Array(try rsa.privateKeyPEM().utf8), for: .ecdhES) }
        expectJWTError(.invalidKey) { try JWEKey(keyFileContents: [0xFF, 0xFE, 0x00], for: .rsaOAEP) }
        let jwks = #"{"keys":[\#(try rsa.publicKey().jwk())]}"#
        expectJWTError(.invalidKey) { try JWEKey(keyFileContents: Array(jwks.utf8), for: .rsaOAEP) }
        expectJWTError(.tooLarge) { try JWEKey(keyFileContents: [UInt8](repeating: 0x20, count: KeyFile.maximumSize + 1), for: .rsaOAEP) }
    }

    @Test("descriptions and errors never show key material")
    func noMaterialInText() throws {
        let secret = Array("0123456789abcdef0123456789abcdef".utf8)
        let key = try JWEKey.symmetric(secret: secret, keyID: "k1")
        #expect(!key.description.contains("0123456789"))
        #expect(key.description.contains("32 bytes"))
        let error = expectJWTError(.algorithmNotAllowed) { try JWEKey(keyFileContents: secret + [0x41], for: .a256KW) }
        #expect(error?.reason.contains("0123456789") == false)
    }
}
