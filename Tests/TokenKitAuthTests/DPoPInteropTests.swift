#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitAuth
import TokenKitTestSupport

/// A transport that records every request it forwards.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `sent` is read and written only while `mutex` is held.
    private let mutex = NSLock()
    private var sent: [HTTPTransportRequest] = []
    let base: any HTTPTransport

    init(_ base: any HTTPTransport) { self.base = base }

    var requests: [HTTPTransportRequest] { mutex.withLock { sent } }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        mutex.withLock { sent.append(request) }
        return try await base.send(request)
    }
}

/// Runs Tests/Interop/dpop_check.py, an independent RFC 9449 §4.3 proof checker on jwcrypto
/// (`scripts/install-prerequisites` installs it). Skipped with a message when python3 or
/// jwcrypto is missing, unless `TOKENKIT_REQUIRE_INTEROP=1` (set by `scripts/test`).
enum DPoPPeer {
    static let script = SourceTree.root.appendingPathComponent("Tests/Interop/dpop_check.py")
    static let required = PythonInterop.required
    static let available: Bool = (try? ChildProcess(
        "/usr/bin/env", ["python3", script.path, "check"], stdin: .inherit, stdout: .discard, stderr: .discard
    ).runBlocking().status) == 0
    static let enabled = available || required

    /// One proof to check and what the request was.
    struct Case: Sendable {
        var proof: String
        var method: String
        var url: String
        var now: Date
        var accessToken: String?
        var nonce: String?

        var json: [String: Any] {
            var object: [String: Any] = ["proof": proof, "method": method, "url": url, "now": now.timeIntervalSince1970]
            if let accessToken { object["access_token"] = accessToken }
            if let nonce { object["nonce"] = nonce }
            return object
        }
    }

    /// The checker's verdicts: `nil` for an accepted proof, else the reason it was refused.
    static func verify(_ cases: [Case]) async throws -> [String?] {
        let input = try JSONSerialization.data(withJSONObject: ["cases": cases.map(\.json)])
        let outcome = try await ChildProcess("/usr/bin/env", ["python3", script.path, "verify"], stdin: .bytes(Array(input)))
            .run(timeout: .seconds(60))
        try #require(outcome.status == 0, "dpop_check.py failed: \(outcome.stderrText)")
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any]
        let results = try #require(parsed?["results"] as? [[String: Any]])
        try #require(results.count == cases.count)
        return results.map { ($0["ok"] as? Bool) == true ? nil : ($0["reason"] as? String ?? "?") }
    }
}

/// TokenKit's DPoP proofs, for a token request and for resource requests sent through
/// ``AuthorizingHTTPTransport``, checked by an implementation that shares nothing with
/// TokenKit (jwcrypto plus the RFC 9449 §4.3 rules written out in Python); and the checker
/// shown to refuse the same proofs for the wrong token, method, URL, nonce or time.
@Suite("DPoP proofs checked by an independent implementation (jwcrypto)", .enabled(if: DPoPPeer.enabled, "python3 with jwcrypto is not available: DPoP interop skipped (set TOKENKIT_REQUIRE_INTEROP=1 to make this a failure)"))
struct DPoPInteropTests {
    @Test("token and resource proofs (with nonces, a query and a fragment in the URL) pass RFC 9449 §4.3; a wrong ath, htm, htu, nonce or iat fails")
    func proofsPassAnIndependentChecker() async throws {
        try #require(DPoPPeer.available, "TOKENKIT_REQUIRE_INTEROP=1 but python3 with jwcrypto is not available")
        try await ServiceFixture.with { f in
            await f.state.set(tokenNonceRequired: true)
            await f.state.set(resourceNonceRequired: true)
            let recording = RecordingTransport(f.transport)
            let grant = try OAuth2ClientCredentialsGrant(
                tokenEndpoint: f.server.tokenEndpoint, clientID: AuthorizationServerState.serviceClientID,
                clientAuthentication: .clientSecretBasic(secret: AuthorizationServerState.serviceClientSecret),
                scopes: [], dpop: true, transport: recording, clock: f.clock)
            let api = AuthorizingHTTPTransport(wrapping: recording, provider: f.provider(grant), clock: f.clock)
            let resource = try #require(URL(string: f.server.resourceURL.absoluteString + "?page=2#top"))
            #expect(try await api.send(HTTPTransportRequest(url: resource)).status == 200)
            #expect(try await api.send(HTTPTransportRequest(url: resource)).status == 200)
            let nonce = await f.state.nonce
            let now = f.clock.now

            // What was sent: token requests (the first refused for a nonce) and resource requests.
            let proofs = recording.requests.compactMap { request -> (HTTPTransportRequest, String)? in
                request.headers.first(named: "DPoP").map { (request, $0) }
            }
            let tokenProofs = proofs.filter { $0.0.method == "POST" }
            let resourceProofs = proofs.filter { $0.0.method == "GET" }
            try #require(!tokenProofs.isEmpty && resourceProofs.count >= 2, "requests: \(proofs.map { $0.0.method })")
            let authorization = try #require(resourceProofs.last?.0.headers.first(named: "Authorization"))
            #expect(authorization.hasPrefix("DPoP "))
            let accessToken = String(authorization.dropFirst("DPoP ".count))

            // Every proof sent must pass; the last of each kind was accepted by a server that
            // demanded its nonce, so the checker demands it there too.
            var cases: [DPoPPeer.Case] = []
            for (index, (_, proof)) in tokenProofs.enumerated() {
                cases.append(DPoPPeer.Case(
                    proof: proof, method: "POST", url: f.server.tokenEndpoint.absoluteString, now: now,
                    nonce: index == tokenProofs.count - 1 ? nonce : nil))
            }
            let token = try #require(cases.last)
            for (index, (request, proof)) in resourceProofs.enumerated() {
                #expect(request.url.query == "page=2")
                cases.append(DPoPPeer.Case(
                    proof: proof, method: "GET", url: request.url.absoluteString, now: now, accessToken: accessToken,
                    nonce: index == resourceProofs.count - 1 ? nonce : nil))
            }
            let good = cases.count
            let resourceCase = cases[good - 1]
            var wrongAth = resourceCase
            wrongAth.accessToken = accessToken + "x"
            var noAth = token
            noAth.accessToken = accessToken  // a token-request proof has no ath
            var wrongMethod = resourceCase
            wrongMethod.method = "POST"
            var wrongURL = resourceCase
            wrongURL.url = f.server.baseURL.absoluteString + "/other"
            var wrongNonce = resourceCase
            wrongNonce.nonce = "another-nonce"
            var stale = resourceCase
            stale.now = now.addingTimeInterval(600)
            var tampered = resourceCase
            tampered.proof = String(resourceCase.proof.dropLast(4)) + (resourceCase.proof.hasSuffix("AAAA") ? "BBBB" : "AAAA")
            cases += [wrongAth, noAth, wrongMethod, wrongURL, wrongNonce, stale, tampered]

            let verdicts = try await DPoPPeer.verify(cases)
            for (index, verdict) in verdicts.prefix(good).enumerated() {
                #expect(verdict == nil, "proof \(index) refused by the independent checker: \(verdict ?? "")")
            }
            let refusals = Array(verdicts.dropFirst(good))
            #expect(refusals[0]?.contains("ath") == true, "wrong ath: \(String(describing: refusals[0]))")
            #expect(refusals[1]?.contains("ath") == true, "missing ath: \(String(describing: refusals[1]))")
            #expect(refusals[2]?.contains("htm") == true)
            #expect(refusals[3]?.contains("htu") == true)
            #expect(refusals[4] == "nonce")
            #expect(refusals[5]?.contains("iat") == true)
            #expect(refusals[6]?.contains("signature") == true)
        }
    }
}
#endif
