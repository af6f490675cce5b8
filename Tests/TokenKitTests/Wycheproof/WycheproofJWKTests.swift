import Testing
import TokenKit
import TokenKitTestSupport

/// Wycheproof json_web_key_test.json: key sets (mixed symmetric/asymmetric, duplicate kid,
/// wrong use, ROCA, short keys, mismatched alg/curve/kty, AES keys) each used to verify a
/// token. Verdicts must match exactly (none is refused on purpose).
@Suite("Wycheproof JWK")
struct WycheproofJWKTests {
    static let file = "json_web_key_test.json"
    static let cases = (try? Wycheproof.joseCases(file)) ?? []

    @Test("the vector file is bundled and complete")
    func fileLoads() throws {
        #expect(try Wycheproof.joseCases(Self.file).count == 26)
    }

    @Test("each key-set vector's verdict matches", arguments: cases)
    func verdict(_ test: WycheproofJOSE.Case) {
        let outcome = WycheproofJOSERunner.verify(test)
        switch (test.result, outcome) {
        case ("valid", .failure(let error)):
            Issue.record("valid vector refused: \(error.code): \(error.reason)")
        case ("invalid", .success):
            Issue.record("invalid vector accepted")
        default:
            break
        }
    }
}
