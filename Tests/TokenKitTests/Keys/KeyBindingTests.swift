import Testing
import TokenKit

/// A key is bound to the algorithms it may serve: HMAC secrets shorter than the hash are
/// refused, RSA under 2048 bits is refused in every format, and a JWK's alg, use and
/// key_ops narrow what the key may do.
@Suite("Keys: algorithm binding and minimum strength")
struct KeyBindingTests {
    /// A 1024-bit RSA key (generated with `openssl genrsa -traditional 1024` for this test;
    /// it protects nothing).
    static let rsa1024Private = """
-----BEGIN RSA PRIVATE KEY-----
MIICXQIBAAKBgQDaiIIkcdZwHhVafibtnqK/O9K7ugnUj7o4GknrGetJveyCr68c
31IQIGGgURAoiBgYGb4LvBq5SWXHWsDRIBt0TATAWWLGTPJIOh5LllT5GsH31THT
R4WDrhIDmJH5IZ5LzhspOre4TFo4rovcgNpXiZS0xOxTWEF2uy2jscE60QIDAQAB
AoGAUx9ZYUNrrXnD5YfWhsuwW80FeyJoWtHQo0Zcl3BkbsgvDgaFNRY8wKWQfMpY
uxIJGCGyiAQkphWlAQ8kCGeOCRpFnS6RNIla3yu4rglrIK97SEiwx4hXZW+RWWiH
nY3eF28454a7K8Oflp6ZTBcNFDlFkqn10BeiP2AnqnpdwAECQQD3HPYkTxWrfGb2
EVLfYQ9fOOrYPLoaXO9kQLpyorhLKvxHE53jZVtyyUUDxEZou+o5HaR7xRuuEJ28
nz9xIZvhAkEA4mRtU9HuzAYPNLBc7JbO1y5vNOUoXSYjK1mS0sgVkSesEDo/bqBi
xwvq0BRgCBYYdqZDZFeWK89WgUb4cSz88QJBAM3jp4GhEuEKiY7D6FSNvg0Mkz8P
ec+1VxAkjjQtN3gJnKBry8VHEeaVo5b71d41k3V7KSymkeV5mrMpy+YqpoECQH87
sbXJ5ksDnMgf1hmhJ94HWrh/kY/IPzu9u6Z6jKRnh2wXUE78FIeJSw5mZRImWNlV
18os71jvzc4Z9MamYgECQQC/8lAAe221HyqtZxKvyTMTpZF+DNqxGm9zXfMCyPwK
MihvJ8H31lVfBKU/XFvgmCBSYB2OuCQ688wkmnHj2ewi
-----END RSA PRIVATE KEY-----
"""
    static let rsa1024Public = """
-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDaiIIkcdZwHhVafibtnqK/O9K7
ugnUj7o4GknrGetJveyCr68c31IQIGGgURAoiBgYGb4LvBq5SWXHWsDRIBt0TATA
WWLGTPJIOh5LllT5GsH31THTR4WDrhIDmJH5IZ5LzhspOre4TFo4rovcgNpXiZS0
xOxTWEF2uy2jscE60QIDAQAB
-----END PUBLIC KEY-----
"""

    @Test("HMAC secrets: < 32 bytes refused; 32 allows HS256; 48 adds HS384; 64 adds HS512")
    func hmacLengths() throws {
        for length in [0, 1, 16, 31] {
            let error = expectJWTError(.invalidKey) { try JWTKey.hmac(secret: [UInt8](repeating: 1, count: length)) }
            #expect(error?.reason.contains("\(length) bytes") == true)
        }
        #expect(try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 32)).algorithms == [.hs256])
        #expect(try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 47)).algorithms == [.hs256])
        #expect(try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 48)).algorithms == [.hs256, .hs384])
        #expect(try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 64)).algorithms == [.hs256, .hs384, .hs512])
        expectJWTError(.algorithmNotAllowed) { try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 32), algorithms: [.hs512]) }
    }

    @Test("a 32-byte secret cannot sign or verify HS384/HS512 tokens")
    func shortSecretHigherHash() throws {
        let big = try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 64))
        let small = try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 32))
        expectJWTError(.algorithmNotAllowed) { try JWTSigner(key: small, algorithm: .hs512) }
        let token = try JWTSigner(key: big, algorithm: .hs512).signJWS(payload: [1])
        expectJWTError(.noMatchingKey) { try JWTVerifier(key: small).verifyJWS(token) }
    }

    @Test("oct JWKs shorter than 32 bytes are refused; alg must fit the length")
    func octJWK() throws {
        for length in [0, 16, 31] {
            let k = Base64URL.encode([UInt8](repeating: 2, count: length))
            expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","k":"\#(k)"}"#) }
        }
        let k32 = Base64URL.encode([UInt8](repeating: 2, count: 32))
        expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","k":"\#(k32)","alg":"HS384"}"#) }
        #expect(try JWTKey(jwk: #"{"kty":"oct","k":"\#(k32)","alg":"HS256"}"#).algorithms == [.hs256])
    }

    @Test("RSA keys under 2048 bits are refused as PEM (PKCS#1, SPKI) and as JWK, and cannot be generated")
    func rsa1024() throws {
        let error = expectJWTError(.invalidKey) { try JWTKey(pem: Self.rsa1024Private) }
        #expect(error?.reason.contains("1024") == true, "\(error?.reason ?? "")")
        expectJWTError(.invalidKey) { try JWTKey(pem: Self.rsa1024Public) }
        // The Wycheproof "keysize_too_small" JWK (1024 bits).
        let jwk = try Wycheproof.joseCases("json_web_key_test.json").first { $0.tcId == 8 }!.keyJSON
        expectJWTError(.invalidKey) { try JWKSet(json: jwk) }
        expectJWTError(.invalidKey) { try JWTKey.generate(for: .rs256, rsaBits: 1024) }
        expectJWTError(.invalidKey) { try JWTKey.generate(for: .rs256, rsaBits: 2047) }
    }

    @Test("a JWK's alg binds it to that one algorithm")
    func jwkAlgBinds() throws {
        let key = try JWTKey.generate(for: .rs256)
        var object = try key.jwkObject(includingPrivate: true)
        object["alg"] = .string("PS256")
        let bound = try JWTKey(jwk: object)
        #expect(bound.algorithms == [.ps256])
        let rs = try JWTSigner(key: key, algorithm: .rs256).signJWS(payload: [1])
        expectJWTError(.noMatchingKey) { try JWTVerifier(key: try bound.publicKey()).verifyJWS(rs) }
        expectJWTError(.algorithmNotAllowed) { try JWTSigner(key: bound, algorithm: .rs256) }
        object["alg"] = .string("ES256")
        expectJWTError(.invalidKey) { try JWTKey(jwk: object) }
        object["alg"] = .string("none")
        expectJWTError(.invalidKey) { try JWTKey(jwk: object) }
    }

    @Test("use other than sig, and key_ops without sign/verify, make a JWK unusable")
    func useAndKeyOps() throws {
        var object = try JWTKey.generate(for: .es256).jwkObject()
        object["use"] = .string("enc")
        expectJWTError(.invalidKey) { try JWTKey(jwk: object) }
        object["use"] = nil
        for ops: [JSONValue] in [[.string("encrypt")], [.string("wrapKey"), .string("deriveKey")], []] {
            object["key_ops"] = .array(ops)
            expectJWTError(.invalidKey) { try JWTKey(jwk: object) }
        }
        object["key_ops"] = .array([.string("verify"), .string("verify")])
        expectJWTError(.invalidKey) { try JWTKey(jwk: object) }
        object["key_ops"] = .string("verify")
        expectJWTError(.invalidKey) { try JWTKey(jwk: object) }
    }

    @Test("key_ops [sign] cannot verify; key_ops [verify] cannot sign")
    func keyOpsDirection() throws {
        let key = try JWTKey.generate(for: .es256)
        var object = try key.jwkObject(includingPrivate: true)
        object["key_ops"] = .array([.string("sign")])
        let signOnly = try JWTKey(jwk: object)
        let token = try JWTSigner(key: signOnly).signJWS(payload: [1])
        expectJWTError(.noMatchingKey) { try JWTVerifier(key: signOnly).verifyJWS(token) }
        object["key_ops"] = .array([.string("verify")])
        let verifyOnly = try JWTKey(jwk: object)
        expectJWTError(.invalidKey) { try JWTSigner(key: verifyOnly) }
        #expect(try JWTVerifier(key: verifyOnly).verifyJWS(token).payload == [1])
    }

    @Test("a public key cannot sign; an HMAC key has no public half")
    func publicCannotSign() throws {
        let key = try JWTKey.generate(for: .eddsa)
        #expect(try !key.publicKey().canSign)
        expectJWTError(.invalidKey) { try JWTSigner(key: try key.publicKey()) }
        expectJWTError(.invalidKey) { try TokenForge.key().publicKey() }
        expectJWTError(.invalidKey) { try TokenForge.key().jwk() }
    }

    @Test("JWKS loading skips unusable keys, lists them, and refuses a set with none usable")
    func jwksSkips() throws {
        let good = try JWTKey.generate(for: .es256, keyID: "good").publicKey().jwk()
        let set = try JWKSet(json: #"{"keys":[\#(good),{"kty":"RSA","use":"enc","n":"AQAB","e":"AQAB"},7]}"#)
        #expect(set.keys.map(\.keyID) == ["good"])
        #expect(set.skipped.map(\.index) == [1, 2])
        expectJWTError(.invalidKey) { try JWKSet(json: #"{"keys":[{"kty":"oct","k":"AAAA"}]}"#) }
        expectJWTError(.invalidKey) { try JWKSet(json: #"{"keys":{}}"#) }
        expectJWTError(.invalidKey) { try JWKSet(json: #"[]"#) }
    }
}
