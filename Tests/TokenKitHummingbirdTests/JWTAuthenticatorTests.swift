#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import NIOCore
import Testing
import TokenKit
import TokenKitAuth
import TokenKitHummingbird
import TokenKitURLSession

@Suite("Hummingbird Bearer authenticator over real HTTP")
struct JWTAuthenticatorTests {
    typealias Context = BasicAuthRequestContext<VerifiedToken>
    static let realm = "tests"

    struct Keys {
        let signing: JWTKey
        let signer: JWTSigner
        init(kid: String = "k1") throws {
            signing = try JWTKey.generate(for: .es256, keyID: kid)
            signer = try JWTSigner(key: signing)
        }

        func token(exp: Double = Date().timeIntervalSince1970 + 600, _ extra: [(String, JSONValue)] = []) throws -> String {
            var object = JSONObject([("sub", .string("alice")), ("exp", .number(JSONNumber(Int64(exp))))])
            for (name, value) in extra { object[name] = value }
            return try signer.sign(JWTClaims(object))
        }
    }

    /// An app whose `/me` needs any token, `/admin` scope `admin`, `/editor` role `editor`.
    static func app(
        source: any JWTKeySource, issuer: ExpectedIssuer = .anyIssuer, audience: ExpectedAudience = .anyAudience,
        caching: VerifiedTokenCaching? = nil, clock: any TokenClock = SystemClock(), extra: ((Router<Context>) -> Void)? = nil
    ) -> some ApplicationProtocol {
        let router = Router(context: Context.self)
        extra?(router)
        let verifier = KeySourceVerifier(source: source, issuer: issuer, audience: audience,
                                         options: ValidationOptions(clock: clock), caching: caching)
        let protected = router.group()
            .add(middleware: JWTAuthenticator(verifier: verifier, realm: realm))
        protected.group().add(middleware: RequireScopesMiddleware(realm: realm))
            .get("me") { _, context in try context.requireIdentity().claims.subject() ?? "" }
        protected.group().add(middleware: RequireScopesMiddleware(["admin"], realm: realm))
            .get("admin") { _, _ in "ok" }
        protected.group().add(middleware: AuthorizationPolicyMiddleware(RolePolicy<VerifiedToken>("editor"), context: Context.self))
            .get("editor") { _, _ in "edit" }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func bearer(_ token: String, scheme: String = "Bearer") -> HTTPFields {
        [.authorization: "\(scheme) \(token)"]
    }

    @Test("a valid token reaches the handler with its claims; the scheme is case-insensitive")
    func validToken() async throws {
        let keys = try Keys()
        let app = Self.app(source: JWKSet(keys: [try keys.signing.publicKey()]))
        try await app.test(.live) { client in
            for scheme in ["Bearer", "bearer", "BEARER"] {
                try await client.execute(uri: "/me", method: .get, headers: Self.bearer(try keys.token(), scheme: scheme)) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "alice")
                }
            }
        }
    }

    @Test("no token: 401 with a realm-only challenge and missing_token")
    func missingToken() async throws {
        let keys = try Keys()
        try await Self.app(source: JWKSet(keys: [try keys.signing.publicKey()])).test(.live) { client in
            for headers: HTTPFields in [[:], [.authorization: "Basic YWxpY2U6c2VjcmV0"]] {
                try await client.execute(uri: "/me", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="tests""#)
                    #expect(String(buffer: response.body).contains(#""error":"missing_token""#))
                }
            }
        }
    }

    @Test("a rejected token: 401 invalid_token with a short reason and never the token")
    func rejectedTokens() async throws {
        let keys = try Keys(), other = try Keys()
        try await Self.app(source: JWKSet(keys: [try keys.signing.publicKey()])).test(.live) { client in
            let expired = try keys.token(exp: Date().timeIntervalSince1970 - 600)
            let forged = try other.token()
            let cases: [(String, String)] = [(expired, "expired"), (forged, "signature"), ("not.a.jwt", "malformed")]
            for (token, reason) in cases {
                try await client.execute(uri: "/me", method: .get, headers: Self.bearer(token)) { response in
                    #expect(response.status == .unauthorized)
                    let challenge = response.headers[.wwwAuthenticate] ?? ""
                    #expect(challenge.hasPrefix(#"Bearer realm="tests", error="invalid_token", error_description=""#))
                    #expect(challenge.contains(reason), "\(challenge)")
                    #expect(!challenge.contains(token) && !String(buffer: response.body).contains(token))
                    #expect(String(buffer: response.body).contains(#""error":"invalid_token""#))
                }
            }
        }
    }

    @Test("a credential that is not a b64token is an invalid token (401)")
    func malformedCredential() async throws {
        let keys = try Keys()
        try await Self.app(source: JWKSet(keys: [try keys.signing.publicKey()])).test(.live) { client in
            for headers in [Self.bearer("abc def"), Self.bearer("a=b")] {
                try await client.execute(uri: "/me", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                }
            }
        }
    }

    @Test("RFC 6750 §3.1: two Authorization headers, or a token in the header and in the query, are 400 invalid_request")
    func twoWaysOfSendingAToken() async throws {
        let keys = try Keys()
        let token = try keys.token()
        try await Self.app(source: JWKSet(keys: [try keys.signing.publicKey()])).test(.live) { client in
            var twice = HTTPFields()
            twice.append(HTTPField(name: .authorization, value: "Bearer \(token)"))
            twice.append(HTTPField(name: .authorization, value: "Bearer \(token)"))
            let cases: [(String, HTTPFields)] = [
                ("/me", twice),
                ("/me?access_token=\(token)", Self.bearer(token)),
                ("/me?a=1&access%5Ftoken=x", Self.bearer(token)),  // the parameter name percent-encoded
                ("/me?access_token", Self.bearer(token)),  // present without a value
            ]
            for (uri, headers) in cases {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix(#"Bearer realm="tests", error="invalid_request""#) == true)
                    let body = String(buffer: response.body)
                    #expect(body.contains(#""error":"invalid_request""#))
                    #expect(!body.contains(token) && response.headers[.wwwAuthenticate]?.contains(token) != true)
                }
            }
            // A query token alone is never read (no identity: 401 missing_token), and another
            // parameter that merely contains the name is no token.
            try await client.execute(uri: "/me?access_token=\(token)", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains(#""error":"missing_token""#))
            }
            try await client.execute(uri: "/me?my_access_token=1&access_tokens=2", method: .get, headers: Self.bearer(token)) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("scopes: 403 insufficient_scope naming the scope; scope strings and scp arrays both count")
    func scopes() async throws {
        let keys = try Keys()
        try await Self.app(source: JWKSet(keys: [try keys.signing.publicKey()])).test(.live) { client in
            try await client.execute(uri: "/admin", method: .get, headers: Self.bearer(try keys.token([("scope", .string("read write"))]))) { response in
                #expect(response.status == .forbidden)
                #expect(response.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
                #expect(response.headers[.wwwAuthenticate]?.contains(#"scope="admin""#) == true)
                #expect(String(buffer: response.body).contains(#""error":"insufficient_scope""#))
            }
            for grant: JSONValue in [.string("read admin"), .array([.string("admin")])] {
                let name = grant.stringValue == nil ? "scp" : "scope"
                try await client.execute(uri: "/admin", method: .get, headers: Self.bearer(try keys.token([(name, grant)]))) { response in
                    #expect(response.status == .ok)
                }
            }
        }
    }

    @Test("roles work with hummingbird-auth's RolePolicy")
    func roles() async throws {
        let keys = try Keys()
        try await Self.app(source: JWKSet(keys: [try keys.signing.publicKey()])).test(.live) { client in
            try await client.execute(uri: "/editor", method: .get, headers: Self.bearer(try keys.token([("roles", .array([.string("editor")]))]))) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/editor", method: .get, headers: Self.bearer(try keys.token([("roles", .array([.string("viewer")]))]))) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test("keys from a remote JWKS served by the same event loop: fetching never blocks it")
    func remoteKeysOnSameServer() async throws {
        let keys = try Keys(kid: "remote")
        let jwks = "{\"keys\":[\(try keys.signing.publicKey().jwk())]}"
        // The JWKS lives on the app itself, so its URL is known only once the port is.
        let lazy = LazyRemoteJWKS()
        let app = Self.app(source: lazy) { router in
            router.get("jwks") { _, _ in Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: jwks))) }
        }
        try await app.test(.live) { client in
            try await client.execute(uri: "/jwks", method: .get) { response in #expect(response.status == .ok) }
            lazy.start(port: client.port ?? 0)
            let results = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await client.execute(uri: "/me", method: .get, headers: Self.bearer(try keys.token())).status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0 == .ok })
            #expect(lazy.fetchCount == 1)
        }
    }
}

/// A ``RemoteJWKS`` created once the live server's port is known.
final class LazyRemoteJWKS: JWTKeySource, @unchecked Sendable {
    // @unchecked Sendable: `remote` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var remote: RemoteJWKS?

    func start(port: Int) {
        lock.lock()
        defer { lock.unlock() }
        remote = try? RemoteJWKS(.url(URL(string: "http://127.0.0.1:\(port)/jwks")!), transport: URLSessionTransport())
    }

    private var source: RemoteJWKS? {
        lock.lock()
        defer { lock.unlock() }
        return remote
    }

    var fetchCount: Int { source?.fetchCount ?? 0 }

    func currentKeys(for request: JWTKeyRequest) -> JWKSet? { source?.currentKeys(for: request) }

    func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet {
        guard let source else { throw JWTError(code: .keysUnavailable, reason: "not started") }
        return try await source.loadKeys(for: request)
    }
}
#endif
