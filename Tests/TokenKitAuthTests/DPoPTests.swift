#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
import TokenKitCrypto
import TokenKitStore
@testable import TokenKitAuth

@Suite("DPoP (RFC 9449): per-login key, proofs at the token endpoint and resource server, nonces")
struct DPoPTests {
    @Test("a proof carries typ dpop+jwt, the public JWK only, htm, htu without query, iat, a fresh jti and ath")
    func proofShape() throws {
        let key = try DPoPKey.generate()
        let url = try #require(URL(string: "https://api.example.com/v1/items?page=2#frag"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let proof = try key.proof(method: "GET", url: url, accessToken: "at-123", nonce: "n-1", now: now)
        let parsed = try UnverifiedJWT(parsing: proof)
        #expect(parsed.header.type == "dpop+jwt")
        #expect(parsed.header.algorithm == .es256)
        let jwk = try #require(parsed.header.raw["jwk"]?.objectValue)
        #expect(jwk["d"] == nil)
        #expect(Set(jwk.keys) == ["kty", "crv", "x", "y"])
        #expect(try JWTKey(jwk: jwk).thumbprint() == key.thumbprint)
        #expect(try parsed.claims.string("htm") == "GET")
        #expect(try parsed.claims.string("htu") == "https://api.example.com/v1/items")
        #expect(try parsed.claims.issuedAt() == 1_800_000_000)
        #expect(try parsed.claims.string("nonce") == "n-1")
        #expect(try parsed.claims.string("ath") == Base64URL.encode(try SHA256Digest.hash(Array("at-123".utf8))))
        // The signature verifies with the header's key.
        _ = try JWTVerifier(key: JWTKey(jwk: jwk), options: ValidationOptions(requiredClaims: [], clock: FixedClock(now))).verify(proof)
        let other = try key.proof(method: "GET", url: url, now: now)
        #expect(try UnverifiedJWT(parsing: other).claims.jwtID() != parsed.claims.jwtID())
        #expect(try UnverifiedJWT(parsing: other).claims["ath"] == nil)
    }

    @Test("the key round-trips through its stored JWK; shared secrets and public keys are refused")
    func keyStorage() throws {
        let key = try DPoPKey.generate()
        let restored = try DPoPKey(privateJWK: try key.privateJWK())
        #expect(restored.thumbprint == key.thumbprint)
        #expect(!key.description.contains(try key.privateJWK()))
        let publicOnly = try JWTKey.generate(for: .es256).publicKey().jwk()
        #expect(throws: AuthError.invalidConfiguration("")) { try DPoPKey(privateJWK: publicOnly) }
        let secret = try JWTKey.hmac(secret: Array(repeating: 1, count: 32)).jwk(includingPrivate: true)
        #expect(throws: AuthError.invalidConfiguration("")) { try DPoPKey(privateJWK: secret) }
        #expect(throws: AuthError.invalidConfiguration("")) { try DPoPKey(privateJWK: "{not json") }
        #expect(throws: AuthError.invalidConfiguration("")) { try DPoPKey.generate(algorithm: .hs256) }
    }

    @Test("client credentials with DPoP: token_type DPoP, the key kept in the store, the same key on re-acquisition")
    func boundTokens() async throws {
        try await ServiceFixture.with { f in
            await f.state.set(requireDPoP: true)
            await f.state.set(expiresIn: 120)
            let provider = f.provider(try f.grant(dpop: true))
            let first = try await provider.validToken()
            #expect(first.isDPoP)
            let stored = try #require(await f.store.tokenSet(f.key))
            #expect(stored.tokenType == "DPoP")
            let jwk = try #require(stored.dpopKey)
            let thumbprint = try DPoPKey(privateJWK: jwk).thumbprint
            f.clock.advance(by: .seconds(100))
            let second = try await provider.validToken()
            #expect(second.value != first.value)
            #expect(await f.state.boundKeys == [thumbprint, thumbprint])
            #expect(await f.store.tokenSet(f.key)?.dpopKey == jwk)
        }
    }

    @Test("a server that requires DPoP refuses the same client without it")
    func dpopRequired() async throws {
        try await ServiceFixture.with { f in
            await f.state.set(requireDPoP: true)
            let error = await #expect(throws: AuthError.self) { try await f.grant().acquire(replacing: nil) }
            #expect(error?.oauthError == "invalid_request")
        }
    }

    @Test("token endpoint use_dpop_nonce: one retry with the server's nonce, then the nonce is reused")
    func tokenEndpointNonce() async throws {
        try await ServiceFixture.with { f in
            await f.state.set(tokenNonceRequired: true)
            let grant = try f.grant(dpop: true)
            _ = try await grant.acquire(replacing: nil)
            #expect(await f.state.tokenRequests == 2)
            #expect(await f.state.issued == 1)
            _ = try await grant.acquire(replacing: nil)
            #expect(await f.state.tokenRequests == 3, "the remembered nonce should be sent at once")
            await f.state.rotateNonce()
            _ = try await grant.acquire(replacing: nil)
            #expect(await f.state.tokenRequests == 5)
            #expect(await f.state.issued == 3)
        }
    }

    @Test("resource requests: Authorization DPoP with a proof bound to the token (ath); a nonce challenge is retried once")
    func resourceRequests() async throws {
        try await ServiceFixture.with { f in
            let provider = f.provider(try f.grant(dpop: true))
            let api = AuthorizingHTTPTransport(wrapping: f.transport, provider: provider, clock: f.clock)
            let first = try await api.send(HTTPTransportRequest(url: f.server.resourceURL))
            #expect(first.status == 200)
            await f.state.set(resourceNonceRequired: true)
            #expect(try await api.send(HTTPTransportRequest(url: f.server.resourceURL)).status == 200)
            #expect(await f.state.resourceRequests == 3)
            #expect(try await api.send(HTTPTransportRequest(url: f.server.resourceURL)).status == 200)
            #expect(await f.state.resourceRequests == 4, "the remembered nonce should be sent at once")
            #expect(await f.state.resourceOK == 3)
            #expect(await f.state.issued == 1, "a nonce challenge must not cost a new token")
        }
    }

    @Test("the test server is strict: a DPoP token sent as Bearer, a proof for another URL, and a replayed proof are refused")
    func serverRefusesBadProofs() async throws {
        try await ServiceFixture.with { f in
            let provider = f.provider(try f.grant(dpop: true))
            let token = try await provider.validToken()
            let key = try DPoPKey(privateJWK: try #require(token.dpopKeyJWK))
            let asBearer = HTTPTransportRequest(url: f.server.resourceURL, headers: [HTTPHeader(name: "Authorization", value: "Bearer \(token.value)")])
            #expect(try await f.transport.send(asBearer).status == 401)
            let elsewhere = try key.proof(method: "GET", url: f.server.tokenEndpoint, accessToken: token.value, now: f.clock.now)
            #expect(try await f.transport.send(Self.request(f, token, proof: elsewhere)).status == 401)
            #expect(await f.state.lastRefusal?.hasPrefix("htu") == true)
            let good = try key.proof(method: "GET", url: f.server.resourceURL, accessToken: token.value, now: f.clock.now)
            #expect(try await f.transport.send(Self.request(f, token, proof: good)).status == 200)
            #expect(try await f.transport.send(Self.request(f, token, proof: good)).status == 401)
            #expect(await f.state.lastRefusal == "jti replayed")
            let otherKey = try DPoPKey.generate()
            let wrongKey = try otherKey.proof(method: "GET", url: f.server.resourceURL, accessToken: token.value, now: f.clock.now)
            #expect(try await f.transport.send(Self.request(f, token, proof: wrongKey)).status == 401)
            let noAth = try key.proof(method: "GET", url: f.server.resourceURL, now: f.clock.now)
            #expect(try await f.transport.send(Self.request(f, token, proof: noAth)).status == 401)
        }
    }

    static func request(_ f: ServiceFixture, _ token: AccessToken, proof: String) -> HTTPTransportRequest {
        HTTPTransportRequest(url: f.server.resourceURL, headers: [
            HTTPHeader(name: "Authorization", value: "DPoP \(token.value)"), HTTPHeader(name: "DPoP", value: proof),
        ])
    }

    // token_type against the proof sent (a Bearer answer to a DPoP request refused, a DPoP
    // answer without a proof refused) is a rule of the one gate: TokenResponseAdmissionTests.

    @Test("a refresh of a DPoP-bound login sends a proof signed by the stored key")
    func refreshCarriesProof() throws {
        let key = try DPoPKey.generate()
        let client = try TokenEndpointClient(
            tokenEndpoint: try #require(URL(string: "https://id.example.com/token")), clientID: "app",
            clientAuthentication: .none, transport: URLSessionTransportForConfig(), clock: SystemClock(), logger: nil)
        let request = try client.makeRequest([("grant_type", "refresh_token"), ("refresh_token", "rt")], dpopKey: key)
        let proof = try UnverifiedJWT(parsing: try #require(request.headers.first(named: "DPoP")))
        #expect(try proof.claims.string("htm") == "POST")
        #expect(try proof.claims.string("htu") == "https://id.example.com/token")
        #expect(try JWTKey(jwk: try #require(proof.header.raw["jwk"]?.objectValue)).thumbprint() == key.thumbprint)
    }
}
#endif
