import Testing
import TokenKit

/// One verifier (and one signer) shared by many tasks: every verification succeeds and
/// every forgery fails, with no shared mutable state between them.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("1,000 concurrent verifications through one shared verifier all succeed", arguments: [JWTAlgorithm.hs256, .es256, .eddsa])
    func sharedVerifier(algorithm: JWTAlgorithm) async throws {
        let key = try JWTKey.generate(for: algorithm)
        let signer = try JWTSigner(key: key)
        let verifierKey = algorithm.isHMAC ? key : try key.publicKey()
        let verifier = JWTVerifier(key: verifierKey, options: ValidationOptions(requiredClaims: ["sub"]))
        let tokens = try (0..<50).map { try signer.sign(JWTClaims(JSONObject([("sub", .string("user-\($0)"))]))) }
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<1_000 {
                group.addTask {
                    let n = i % tokens.count
                    let claims = try verifier.verify(tokens[n]).claims
                    // Every tenth task also checks that a forgery still fails under load.
                    if i % 10 == 0 {
                        let forged = String(tokens[n].dropLast(2)) + (tokens[n].hasSuffix("AA") ? "BA" : "AA")
                        if (try? verifier.verify(forged)) != nil { return false }
                    }
                    return claims["sub"] == .string("user-\(n)")
                }
            }
            var all: [Bool] = []
            for try await ok in group { all.append(ok) }
            return all
        }
        #expect(results.count == 1_000)
        #expect(results.allSatisfy { $0 })
    }

    @Test("concurrent signing with one shared signer produces tokens that all verify")
    func sharedSigner() async throws {
        let key = try JWTKey.generate(for: .ps256)
        let signer = try JWTSigner(key: key)
        let verifier = JWTVerifier(key: try key.publicKey())
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<64 { group.addTask { try signer.signJWS(payload: Array("m\(i)".utf8)) } }
            var out: [String] = []
            for try await token in group { out.append(token) }
            return out
        }
        #expect(Set(tokens).count == 64)
        for token in tokens { _ = try verifier.verifyJWS(token) }
    }
}
