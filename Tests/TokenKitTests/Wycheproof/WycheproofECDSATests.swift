import Testing
import TokenKit
import TokenKitCrypto

/// Wycheproof ECDSA vectors in IEEE P1363 form (r || s, fixed width), which is exactly the
/// JWS ES256/ES384/ES512/ES256K signature form. Each group's key is loaded three ways
/// (SPKI DER, PEM, JWK components) and every vector's verdict must match exactly.
@Suite("Wycheproof ECDSA P1363")
struct WycheproofECDSATests {
    struct Curve: Sendable, CustomTestStringConvertible {
        let file: String
        let curve: ECCurve
        let digest: MessageDigest
        var testDescription: String { curve.rawValue }
    }

    static let curves: [Curve] = [
        Curve(file: "ecdsa_secp256r1_sha256_p1363_test.json", curve: .p256, digest: .sha256),
        Curve(file: "ecdsa_secp384r1_sha384_p1363_test.json", curve: .p384, digest: .sha384),
        Curve(file: "ecdsa_secp521r1_sha512_p1363_test.json", curve: .p521, digest: .sha512),
        Curve(file: "ecdsa_secp256k1_sha256_p1363_test.json", curve: .secp256k1, digest: .sha256),
    ]

    @Test("every P1363 vector's verdict matches, whichever way the key was loaded", arguments: curves)
    func verdictsMatch(_ curve: Curve) throws {
        let groups = try Wycheproof.signatureGroups(curve.file)
        var checked = 0
        for group in groups {
            let fromDER = try PKey(subjectPublicKeyInfo: TestSupport.hex(group.publicKeyDer))
            let fromPEM = try PKey(pem: group.publicKeyPem)
            var keys = [("SPKI DER", fromDER), ("PEM", fromPEM)]
            if let jwk = group.publicKeyJwk, let x = jwk["x"], let y = jwk["y"] {
                let components = KeyComponents.ec(curve: curve.curve, x: try Base64URL.decode(x), y: try Base64URL.decode(y), d: nil)
                keys.append(("JWK", try PKey(components: components)))
            }
            #expect(fromDER.type == .ec(curve.curve))
            for test in group.tests {
                let message = TestSupport.hex(test.msg), signature = TestSupport.hex(test.sig)
                for (how, key) in keys {
                    let accepted = key.verify(signature, for: message, scheme: .ecdsa(curve.digest)) == .valid
                    #expect(accepted == (test.result == "valid"),
                            "\(curve.file) tcId \(test.tcId) (\(test.result), \(test.comment)) via \(how): accepted=\(accepted)")
                }
                checked += 1
            }
        }
        #expect(checked > 200, "too few vectors read from \(curve.file)")
    }
}
