#if Hummingbird && Postgres
import Testing
@testable import TokenKitAuth

@Suite("PKCE")
struct PKCETests {
    @Test("S256 challenge matches RFC 7636 Appendix B")
    func rfcVector() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
        #expect(!pkce.description.contains(pkce.verifier))
    }

    @Test("Fresh verifiers are 43 unreserved characters and differ")
    func fresh() throws {
        let a = try PKCE(), b = try PKCE()
        #expect(a.verifier.utf8.count == 43)
        #expect(a.verifier != b.verifier)
    }

    @Test("Verifiers that are too short, too long or use reserved characters are refused")
    func badVerifiers() {
        for bad in [String(repeating: "a", count: 42), String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "/"] {
            #expect(throws: AuthError.self) { try PKCE(verifier: bad) }
        }
    }
}
#endif
