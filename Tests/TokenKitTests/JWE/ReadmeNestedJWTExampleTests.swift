import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// The README's nested-JWT example (signed by an issuer, then encrypted to the service), run
/// as written: the test plays the issuer and writes the service's key file.
@Suite("README nested JWT example")
struct ReadmeNestedJWTExampleTests {
    @Test("the README's decryptNested example decrypts and verifies a nested JWT")
    func nestedJWT() throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-readme-jwe")
        defer { withExtendedLifetime(directory) {} }
        // The service's key pair; the issuer's signing key and its JWKS.
        let serviceKey = try JWEKey.generate(for: .ecdhESA256KW)
        let keyPath = directory.file("jwe-private.pem")
        try Data(try serviceKey.privateKeyPEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let issuerKey = try JWTKey.generate(for: .es256, keyID: "issuer-1")
        let issuerJWKS = #"{"keys":[\#(try issuerKey.publicKey().jwk())]}"#
        let signedJWT = try JWTSigner(key: issuerKey).sign(JWTClaims(JSONObject([
            ("sub", .string("alice")), ("aud", .string("api")), ("exp", .number(JSONNumber(Int64(Date().timeIntervalSince1970) + 600))),
        ])))
        let theirPublicKey = try serviceKey.publicKey()

        // --- README lines (file paths point into the test's directory) ---
        // The issuer signs, then encrypts to the service's public key (cty "JWT"):
        let token = try JWEEncrypter(recipient: theirPublicKey, algorithm: .ecdhESA256KW).encryptNested(signedJWT)
        // The service decrypts with its private key, then verifies the inner JWT:
        let myKey = try JWEKey(pem: String(contentsOfFile: keyPath, encoding: .utf8))
        let verifier = JWTVerifier(keys: try JWKSet(json: issuerJWKS), options: ValidationOptions(audiences: ["api"]))
        let claims = try JWEDecrypter(key: myKey).decryptNested(token, verifier: verifier).claims
        // --- end of README lines ---

        #expect(claims["sub"] == .string("alice"))
    }
}
