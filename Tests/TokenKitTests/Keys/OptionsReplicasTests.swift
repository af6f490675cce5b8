import Testing
@testable import TokenKit

/// The per-CPU copies of a verifier's options (issue 11): equal in value to the original,
/// so the claim checks answer exactly as with the original.
@Suite("Per-CPU option copies")
struct OptionsReplicasTests {
    static let options = ValidationOptions(
        algorithms: [.hs256, .es256], leeway: .seconds(30), requiredClaims: ["exp", "sub", "a-claim-name-longer-than-fifteen-bytes"],
        issuers: ["https://issuer.example.com/realms/a-long-realm-name"], audiences: ["api://resource", "another-audience-over-15-bytes"],
        subject: "a-subject-longer-than-fifteen-bytes", type: "at+jwt", maxAge: .seconds(600))

    @Test func aReplicaHasEveryValueOfTheOriginal() {
        let original = Self.options, copy = original.replicated()
        #expect(copy.algorithms == original.algorithms)
        #expect(copy.leeway == original.leeway)
        #expect(copy.requiredClaims == original.requiredClaims)
        #expect(copy.issuers == original.issuers)
        #expect(copy.audiences == original.audiences)
        #expect(copy.subject == original.subject)
        #expect(copy.type == original.type)
        #expect(copy.maxAge == original.maxAge)
        #expect(copy.rejectIssuedInFuture == original.rejectIssuedInFuture)
        #expect(copy.limits == original.limits)
    }

    @Test func theLocalCopyIsMadeOnceAndStaysEqual() {
        let replicas = OptionsReplicas()
        let first = replicas.withLocal(Self.options) { $0 }, second = replicas.withLocal(Self.options) { $0 }
        #expect(first.issuers == Self.options.issuers && second.issuers == Self.options.issuers)
        #expect(first.audiences == second.audiences)
    }

    /// Many tasks verify through the per-CPU copies: a token for another issuer or audience is
    /// refused every time, a good one accepted every time.
    @Test func concurrentVerifiesThroughCopiesKeepEveryClaimCheck() async throws {
        let key = try JWTKey.hmac(secret: Array(repeating: 7, count: 32))
        let signer = try JWTSigner(key: key)
        let verifier = JWTVerifier(key: key, options: ValidationOptions(
            issuers: ["https://issuer.example.com/realms/a-long-realm-name"], audiences: ["api://resource"]))
        func token(iss: String, aud: String) throws -> String {
            try signer.sign(JWTClaims(JSONObject([
                ("iss", .string(iss)), ("aud", .string(aud)), ("exp", .number(JSONNumber(4102444800))),
            ])))
        }
        let good = try token(iss: "https://issuer.example.com/realms/a-long-realm-name", aud: "api://resource")
        let wrongIssuer = try token(iss: "https://issuer.example.com/realms/another-realm", aud: "api://resource")
        let wrongAudience = try token(iss: "https://issuer.example.com/realms/a-long-realm-name", aud: "api://other")
        let right = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var right = 0
                    for _ in 0..<300 {
                        if (try? verifier.verify(good)) != nil { right += 1 }
                        if (try? verifier.verify(wrongIssuer)) == nil { right += 1 }
                        if (try? verifier.verify(wrongAudience)) == nil { right += 1 }
                    }
                    return right
                }
            }
            return await group.reduce(0, +)
        }
        #expect(right == 8 * 300 * 3)
    }
}
