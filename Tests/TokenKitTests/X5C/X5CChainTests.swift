import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// x5c chains built at test time by Tests/Interop/x5c_chains.py (Python `cryptography`, fresh
/// throw-away keys): valid 3-level chains for ES256, RS256 and EdDSA, and every defect the
/// verifier must refuse — validity, unrelated CA, CA:FALSE, pathLen, missing intermediate, key
/// usage, SHA-1, RSA-1024, malformed entries, a JWS signed by a key other than the leaf's.
@Suite("x5c chains: path validation, policy, cache", .enabled(if: PythonInterop.enabled, PythonInterop.skipMessage))
struct X5CChainTests {
    /// Scenarios every run must cover (the script's names).
    static let required: Set<String> = [
        "valid-ES256", "valid-RS256", "valid-EdDSA", "valid-with-root-copy", "wrong-signer", "alg-not-leaf-type",
        "missing-intermediate", "unrelated-ca", "x5c-not-array", "x5c-empty", "x5c-not-string", "x5c-base64url",
        "x5c-not-der", "x5c-trailing-bytes", "x5c-too-long", "no-x5c", "leaf-expired", "intermediate-not-yet-valid",
        "intermediate-ca-false", "pathlen-exceeded", "intermediate-no-keycertsign", "leaf-no-digitalsignature",
        "sha1-signature", "rsa1024-leaf",
    ]

    static func verifier(_ c: PythonInterop.X5CCase, now: Double, policy: X5CPolicy = X5CPolicy(), clock: (any TokenClock)? = nil) throws -> X5CVerifier {
        let roots = try X509Certificate.certificates(pem: String(contentsOfFile: c.root, encoding: .utf8))
        return try X5CVerifier(trustedRoots: roots, policy: policy,
                               options: ValidationOptions(requiredClaims: [], clock: clock ?? FixedClock(unixTime: now)))
    }

    @Test("every scenario: valid chains verify and print their claims; each defect is refused with its reason")
    func scenarios() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        #expect(Self.required.isSubset(of: Set(manifest.cases.map(\.name))))
        for c in manifest.cases {
            let verifier = try Self.verifier(c, now: manifest.now)
            if c.expect == "ok" {
                #expect(throws: Never.self, "\(c.name)") { try verifier.verify(c.token) }
                continue
            }
            let error = expectJWTError(Self.expectedCode(c.name)) { try verifier.verify(c.token) }
            #expect(error?.reason.contains(c.expect) == true, "\(c.name): \(error?.reason ?? "")")
        }
    }

    /// The code each refusal scenario ends in: a chain failure, except a wrong signer (the
    /// chain is fine, the signature is not) and an alg that does not fit the leaf key.
    static func expectedCode(_ name: String) -> JWTError.Code {
        switch name {
        case "wrong-signer": .badSignature
        case "alg-not-leaf-type": .algorithmNotAllowed
        default: .certificateChain
        }
    }

    @Test("a cached chain is still checked against the verification time: expired and not-yet-valid are reported")
    func cacheHonoursTime() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        guard let valid = manifest.cases.first(where: { $0.name == "valid-ES256" }) else { Issue.record("no valid-ES256"); return }
        let clock = ManualClock(Date(timeIntervalSince1970: manifest.now))
        let verifier = try Self.verifier(valid, now: manifest.now, clock: clock)
        #expect(throws: Never.self) { try verifier.verify(valid.token) }
        #expect(throws: Never.self) { try verifier.verify(valid.token) }  // from the cache
        clock.advance(by: .seconds(400 * 86_400))
        let expired = expectJWTError(.certificateChain) { try verifier.verify(valid.token) }
        #expect(expired?.reason.contains("certificate has expired") == true)
        clock.set(Date(timeIntervalSince1970: manifest.now - 2 * 86_400))
        let early = expectJWTError(.certificateChain) { try verifier.verify(valid.token) }
        #expect(early?.reason.contains("not yet valid") == true)
        clock.set(Date(timeIntervalSince1970: manifest.now))
        #expect(throws: Never.self) { try verifier.verify(valid.token) }
    }

    @Test("the App Store policy requires Apple's marker OIDs on leaf and intermediate, and at most 3 certificates")
    func appStorePolicy() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        func scenario(_ name: String) throws -> PythonInterop.X5CCase {
            guard let found = manifest.cases.first(where: { $0.name == name }) else { throw PythonInterop.PeerFailed(description: "no \(name)") }
            return found
        }
        let marked = try scenario("appstore-valid")
        #expect(throws: Never.self) { try Self.verifier(marked, now: manifest.now, policy: .appStore).verify(marked.token) }
        let unmarked = try scenario("appstore-unmarked")
        let error = expectJWTError(.certificateChain) { try Self.verifier(unmarked, now: manifest.now, policy: .appStore).verify(unmarked.token) }
        #expect(error?.reason.contains("lacks the required extension 1.2.840.113635.100.6.11.1") == true)
        var issuerOnly = X5CPolicy.appStore
        issuerOnly.leafExtensionOIDs = []
        let issuer = expectJWTError(.certificateChain) { try Self.verifier(unmarked, now: manifest.now, policy: issuerOnly).verify(unmarked.token) }
        #expect(issuer?.reason.contains("the leaf's issuer lacks the required extension 1.2.840.113635.100.6.2.1") == true)
        let long = try scenario("x5c-too-long")
        expectJWTError(.certificateChain) { try Self.verifier(long, now: manifest.now, policy: .appStore).verify(long.token) }
    }

    @Test("a pinned leaf subject is compared exactly (RFC 2253 form)")
    func leafSubjectPin() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        guard let valid = manifest.cases.first(where: { $0.name == "valid-ES256" }) else { Issue.record("no valid-ES256"); return }
        let header = try UnverifiedJWT(parsing: valid.token).header
        guard let first = header.raw["x5c"]?.arrayValue?.first?.stringValue, let der = Data(base64Encoded: first) else {
            Issue.record("no x5c leaf")
            return
        }
        let leaf = try X509Certificate(derEncoded: Array(der))
        #expect(leaf.subject == "O=TokenKit Tests,CN=Test Leaf")
        #expect(throws: Never.self) { try Self.verifier(valid, now: manifest.now, policy: X5CPolicy(leafSubject: leaf.subject)).verify(valid.token) }
        let error = expectJWTError(.certificateChain) {
            try Self.verifier(valid, now: manifest.now, policy: X5CPolicy(leafSubject: "O=TokenKit Tests,CN=Test Leaf ")).verify(valid.token)
        }
        #expect(error?.reason.contains("is not the pinned subject") == true)
    }

    @Test("header checks come before any chain work: alg none, a disallowed alg and crit are refused as such")
    func headerChecksFirst() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        guard let valid = manifest.cases.first(where: { $0.name == "valid-ES256" }) else { Issue.record("no valid-ES256"); return }
        var header = try UnverifiedJWT(parsing: valid.token).header.raw
        let parts = valid.token.split(separator: ".").map(String.init)
        func forged(_ change: (inout JSONObject) -> Void) -> String {
            var copy = header
            change(&copy)
            return Base64URL.encode(Array(JSONValue.object(copy).jsonText.utf8)) + "." + parts[1] + "." + parts[2]
        }
        let verifier = try Self.verifier(valid, now: manifest.now)
        expectJWTError(.unsecured) { try verifier.verify(forged { $0["alg"] = .string("none") }) }
        // With a broken x5c too, the header's refusal wins: no chain work was done first.
        expectJWTError(.unsecured) { try verifier.verify(forged { $0["alg"] = .string("none"); $0["x5c"] = .array([]) }) }
        expectJWTError(.unsupportedCritical) { try verifier.verify(forged { $0["crit"] = .array([.string("b64")]); $0["x5c"] = .string("x") }) }
        expectJWTError(.unsupportedCritical) { try verifier.verify(forged { $0["crit"] = .array([.string("x5c")]) }) }
        let rsOnly = try X5CVerifier(trustedRoots: verifier.trustedRoots, options: ValidationOptions(algorithms: [.rs256], requiredClaims: [], clock: FixedClock(unixTime: manifest.now)))
        expectJWTError(.algorithmNotAllowed) { try rsOnly.verify(valid.token) }
        header["x5u"] = .string("https://attacker.example/chain.pem")
        expectJWTError(.badSignature) { try verifier.verify(forged { _ in }) }  // x5u is never fetched; the header changed
    }

    @Test("an unusable configuration is refused: no roots, a malformed OID, a zero chain length")
    func configuration() throws {
        expectJWTError(.invalidKey) { try X5CVerifier(trustedRoots: []) }
        let badOID = expectJWTError(.invalidKey) { try X5CVerifier(trustedRoots: [], policy: X5CPolicy(leafExtensionOIDs: ["1.2.x"])) }
        #expect(badOID?.reason.contains("dotted object identifier") == true)
        let zero = expectJWTError(.invalidKey) { try X5CVerifier(trustedRoots: [], policy: X5CPolicy(maximumChainLength: 0)) }
        #expect(zero?.reason.contains("at least 1") == true)
        expectJWTError(.invalidKey) { try X509Certificate.certificates(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") }
        expectJWTError(.invalidKey) { try X509Certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01]) }
    }
}
