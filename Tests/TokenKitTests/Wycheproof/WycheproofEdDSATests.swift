import Testing
import TokenKit
import TokenKitCrypto

/// Wycheproof Ed25519 and Ed448 vectors (pure EdDSA, as JWS `EdDSA` uses it). Keys are
/// loaded from SPKI DER and from the raw JWK `x`; verdicts must match exactly.
@Suite("Wycheproof EdDSA")
struct WycheproofEdDSATests {
    @Test("every Ed25519 and Ed448 vector's verdict matches", arguments: [
        ("ed25519_test.json", false), ("ed448_test.json", true),
    ])
    func verdictsMatch(file: String, ed448: Bool) throws {
        var checked = 0
        for group in try Wycheproof.signatureGroups(file) {
            var keys = [("SPKI DER", try PKey(subjectPublicKeyInfo: TestSupport.hex(group.publicKeyDer)))]
            if let x = group.publicKeyJwk?["x"] {
                keys.append(("JWK", try PKey(components: .okp(ed448: ed448, x: try Base64URL.decode(x), d: nil))))
            }
            #expect(keys[0].1.type == (ed448 ? .ed448 : .ed25519))
            for test in group.tests {
                for (how, key) in keys {
                    let accepted = key.verify(TestSupport.hex(test.sig), for: TestSupport.hex(test.msg), scheme: .eddsa) == .valid
                    #expect(accepted == (test.result == "valid"),
                            "\(file) tcId \(test.tcId) (\(test.result), \(test.comment)) via \(how): accepted=\(accepted)")
                }
                checked += 1
            }
        }
        #expect(checked > 80)
    }
}
