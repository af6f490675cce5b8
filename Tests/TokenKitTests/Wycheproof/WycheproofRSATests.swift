import Testing
import TokenKit
import TokenKitCrypto

/// Wycheproof RSA 2048 vectors: RSASSA-PKCS1-v1_5 with SHA-256 (RS256) and RSASSA-PSS with
/// SHA-256, MGF1-SHA-256 and a 32-byte salt (PS256). Verdicts must match exactly; the one
/// "acceptable" PKCS#1 vector (tcId 8, DigestInfo without the NULL parameter) may go
/// either way, and the test records which way OpenSSL went.
@Suite("Wycheproof RSA")
struct WycheproofRSATests {
    @Test("every RSASSA-PKCS1-v1_5 SHA-256 vector's verdict matches (RS256)")
    func pkcs1() throws {
        let outcome = try run("rsa_signature_2048_sha256_test.json", scheme: .rsaPKCS1(.sha256))
        #expect(outcome.checked == 259)
    }

    @Test("every RSASSA-PSS SHA-256 MGF1 salt-32 vector's verdict matches (PS256)")
    func pss() throws {
        let outcome = try run("rsa_pss_2048_sha256_mgf1_32_test.json", scheme: .rsaPSS(.sha256))
        #expect(outcome.checked == 108)
    }

    private func run(_ file: String, scheme: SignatureScheme) throws -> (checked: Int, acceptableAccepted: [Int]) {
        var checked = 0, acceptableAccepted: [Int] = []
        for group in try Wycheproof.signatureGroups(file) {
            let key = try PKey(subjectPublicKeyInfo: TestSupport.hex(group.publicKeyDer))
            #expect(key.bits == 2048)
            for test in group.tests {
                let accepted = key.verify(TestSupport.hex(test.sig), for: TestSupport.hex(test.msg), scheme: scheme) == .valid
                switch test.result {
                case "acceptable": if accepted { acceptableAccepted.append(test.tcId) }
                default:
                    #expect(accepted == (test.result == "valid"),
                            "\(file) tcId \(test.tcId) (\(test.result), \(test.comment)): accepted=\(accepted)")
                }
                checked += 1
            }
        }
        return (checked, acceptableAccepted)
    }
}
