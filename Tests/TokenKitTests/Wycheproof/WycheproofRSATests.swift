import Testing
import TokenKit
import TokenKitCrypto

/// Wycheproof RSA 2048 vectors: RSASSA-PKCS1-v1_5 with SHA-256 (RS256) and RSASSA-PSS with
/// SHA-256, MGF1-SHA-256 and a 32-byte salt (PS256). Verdicts must match exactly; the one
/// "acceptable" PKCS#1 vector (tcId 8, DigestInfo without the NULL parameter) may go
/// either way (OpenSSL 3 refused it when this was written: it compares the encoded
/// DigestInfo exactly); the test checks that it was run.
@Suite("Wycheproof RSA")
struct WycheproofRSATests {
    @Test("every RSASSA-PKCS1-v1_5 SHA-256 vector's verdict matches (RS256)")
    func pkcs1() throws {
        let outcome = try run("rsa_signature_2048_sha256_test.json", scheme: .rsaPKCS1(.sha256))
        #expect(outcome.checked == 259)
        #expect(outcome.acceptable == [8], "the file's only acceptable vector should be tcId 8")
    }

    @Test("every RSASSA-PSS SHA-256 MGF1 salt-32 vector's verdict matches (PS256)")
    func pss() throws {
        let outcome = try run("rsa_pss_2048_sha256_mgf1_32_test.json", scheme: .rsaPSS(.sha256))
        #expect(outcome.checked == 108)
        #expect(outcome.acceptable.isEmpty)
    }

    /// Runs every vector; returns how many ran and the tcIds of "acceptable" vectors.
    private func run(_ file: String, scheme: SignatureScheme) throws -> (checked: Int, acceptable: [Int]) {
        var checked = 0, acceptable: [Int] = []
        for group in try Wycheproof.signatureGroups(file) {
            let key = try PKey(subjectPublicKeyInfo: TestSupport.hex(group.publicKeyDer))
            #expect(key.bits == 2048)
            for test in group.tests {
                let accepted = key.verify(TestSupport.hex(test.sig), for: TestSupport.hex(test.msg), scheme: scheme) == .valid
                switch test.result {
                case "acceptable": acceptable.append(test.tcId)
                default:
                    #expect(accepted == (test.result == "valid"),
                            "\(file) tcId \(test.tcId) (\(test.result), \(test.comment)): accepted=\(accepted)")
                }
                checked += 1
            }
        }
        return (checked, acceptable)
    }
}
