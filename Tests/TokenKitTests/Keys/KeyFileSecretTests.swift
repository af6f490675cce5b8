import Testing
import TokenKit

/// `KeyFile.holdsSecret`: what makes a key file a secret file (issue 23 item 7). Private keys
/// and HMAC secrets in every format are secret wherever they sit in the file; public keys,
/// certificates and public JWKS are not.
@Suite("Keys: which key files hold secrets")
struct KeyFileSecretTests {
    static func holdsSecret(_ text: String) -> Bool { KeyFile.holdsSecret(Array(text.utf8)) }

    @Test("private PEM keys in every encoding hold a secret; public keys and certificates do not")
    func pem() throws {
        let ec = try JWTKey.generate(for: .es256)
        #expect(Self.holdsSecret(try ec.privateKeyPEM()))
        #expect(Self.holdsSecret(KeyFileTests.ecParametersAndKey))  // SEC1 after EC PARAMETERS
        for label in ["RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "OPENSSH PRIVATE KEY"] {
            #expect(Self.holdsSecret("-----BEGIN \(label)-----\nAAAA\n-----END \(label)-----\n"), "\(label)")
        }
        #expect(!Self.holdsSecret(try ec.publicKeyPEM()))
        #expect(!Self.holdsSecret(KeyFileTests.publicKey))
        #expect(!Self.holdsSecret(KeyFileTests.certificate))
        #expect(!Self.holdsSecret("-----BEGIN RSA PUBLIC KEY-----\nAAAA\n-----END RSA PUBLIC KEY-----\n"))
    }

    @Test("a private key after a certificate still makes the file secret (KeyFile loads only the first block)")
    func privateKeyAfterCertificate() throws {
        let bundle = KeyFileTests.certificate + "\n" + (try JWTKey.generate(for: .es256).privateKeyPEM())
        #expect(Self.holdsSecret(bundle))
        #expect(try KeyFile(contents: Array(bundle.utf8), for: .verification).keySet.keys.first?.isSecret == false)
    }

    @Test("a JWK or a JWKS entry with private members or an oct secret holds a secret; public ones do not")
    func json() throws {
        let ec = try JWTKey.generate(for: .es256), rsa = try JWTKey.generate(for: .rs256), hmac = try JWTKey.generate(for: .hs256)
        let ed = try JWTKey.generate(for: .eddsa)
        for key in [ec, rsa, hmac, ed] {
            #expect(Self.holdsSecret(try key.jwk(includingPrivate: true)), "\(key)")
        }
        for key in [ec, rsa, ed] {
            #expect(!Self.holdsSecret(try key.jwk()), "\(key)")
        }
        let publicSet = try JWKSet.publicDocument([ec.withKeyID("a"), rsa.withKeyID("b")])
        #expect(!Self.holdsSecret(publicSet))
        let onePrivate = #"{"keys":[\#(try ec.jwk()),\#(try rsa.jwk(includingPrivate: true))]}"#
        #expect(Self.holdsSecret(onePrivate))
        // Private RSA members alone, without d, still count (a JWK that will not load).
        #expect(Self.holdsSecret(#"{"kty":"RSA","n":"AQAB","e":"AQAB","p":"AQAB"}"#))
    }

    @Test("bytes that are not a key file (not UTF-8, JSON that does not parse) are not called secret: loading them fails")
    func notKeyFiles() {
        #expect(!KeyFile.holdsSecret([0xC3, 0x28]))
        #expect(!Self.holdsSecret(#"{"kty":"oct","k":"#))
        #expect(!Self.holdsSecret(""))
    }
}
