import Testing
import TokenKit
import TokenKitTestSupport

/// Wycheproof json_web_signature_test.json through `JWTVerifier.verifyJWS` with each
/// group's JWK/JWKS. Verdicts must match exactly, except the named vectors in
/// ``WycheproofJOSERunner/refusedOnPurpose`` which must be refused with their code.
@Suite("Wycheproof JWS (library)")
struct WycheproofJWSTests {
    static let file = "json_web_signature_test.json"
    static let cases = (try? Wycheproof.joseCases(file)) ?? []

    @Test("the vector file is bundled and complete")
    func fileLoads() throws {
        #expect(try Wycheproof.joseCases(Self.file).count == 401)
    }

    @Test("each vector's verdict matches (or is a named, deliberate refusal)", arguments: cases)
    func verdict(_ test: WycheproofJOSE.Case) {
        let outcome = WycheproofJOSERunner.verify(test)
        if let deliberate = WycheproofJOSERunner.refusedOnPurpose[Self.file]?[test.tcId] {
            #expect(test.result == "valid", "tcId \(test.tcId) is listed as refused on purpose but is not marked valid")
            switch outcome {
            case .success: Issue.record("tcId \(test.tcId) should be refused on purpose (\(deliberate.why)) but was accepted")
            case .failure(let error): #expect(error.code == deliberate.code, "tcId \(test.tcId): \(error.code) \(error.reason)")
            }
            return
        }
        if let twin = WycheproofJOSERunner.invalidDuplicatesOfValid[Self.file]?[test.tcId] {
            let valid = Self.cases.first { $0.tcId == twin }
            #expect(valid?.result == "valid" && valid?.jws == test.jws && valid?.keyJSON == test.keyJSON,
                    "tcId \(test.tcId) is no longer identical to valid tcId \(twin): remove it from invalidDuplicatesOfValid")
            if case .failure(let error) = outcome { Issue.record("the valid twin of tcId \(test.tcId) must verify: \(error.reason)") }
            return
        }
        switch (test.result, outcome) {
        case ("valid", .failure(let error)):
            Issue.record("valid vector refused: \(error.code): \(error.reason)")
        case ("invalid", .success):
            Issue.record("invalid vector accepted")
        default:
            break
        }
    }

    @Test("every refused-on-purpose tcId exists and is a valid vector")
    func deliberateListIsCurrent() throws {
        let all = try Wycheproof.joseCases(Self.file)
        for (tcId, _) in WycheproofJOSERunner.refusedOnPurpose[Self.file] ?? [:] {
            #expect(all.first { $0.tcId == tcId }?.result == "valid", "tcId \(tcId)")
        }
    }
}
