#if Hummingbird && Postgres
import Foundation
import HTTPServerTestSupport
import HTTPTypes
import Hummingbird
import NIOCore
import TokenKit
import TokenKitCrypto

/// A small OpenID provider for the browser sign-in tests (the code flow django-oauth-toolkit
/// also offers, but whose answers a test cannot bend): discovery, an authorization endpoint
/// that approves at once (302 to `redirect_uri` with `code`, `state` and, unless told
/// otherwise, RFC 9207 `iss`), a token endpoint for `authorization_code` (PKCE S256, the
/// redirect URI and the client checked) and `refresh_token` (ID tokens on both), and its JWKS.
actor OIDCServerState {
    static let clientID = "native-app"

    /// Discovery says `authorization_response_iss_parameter_supported`.
    var promisesIss = true
    /// The authorization response carries `iss`.
    var sendsIss = true
    /// The subject of ID tokens at sign-in, and on refresh (a swapped account when it differs).
    var subject = "user-1"
    var refreshSubject: String?
    var email: String? = "alice@example.com"

    private(set) var authorizeRequests = 0
    private(set) var exchanges = 0
    private(set) var refreshes = 0
    private var pending: [String: (redirectURI: String, challenge: String, nonce: String?)] = [:]
    private var refreshTokens: Set<String> = []
    private var serial = 0
    private var baseURL = ""
    let key: TestSigningKey

    init() throws { key = try TestSigningKey(kid: "oidc-test") }

    func set(baseURL: String) { self.baseURL = baseURL }
    func set(promisesIss: Bool, sendsIss: Bool) {
        self.promisesIss = promisesIss
        self.sendsIss = sendsIss
    }
    func set(refreshSubject: String?) { self.refreshSubject = refreshSubject }

    func discovery() -> String {
        json([
            "issuer": baseURL, "authorization_endpoint": baseURL + "/authorize", "token_endpoint": baseURL + "/token",
            "jwks_uri": baseURL + "/jwks", "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": promisesIss,
        ])
    }

    func jwks() throws -> String { try TestSigningKey.jwks([key]) }

    /// The redirect for an authorization request: approved at once.
    func authorize(_ query: [String: String]) -> (status: Int, location: String?) {
        authorizeRequests += 1
        guard query["client_id"] == Self.clientID, query["response_type"] == "code", query["code_challenge_method"] == "S256",
              let redirect = query["redirect_uri"], redirect.hasPrefix("http://127.0.0.1:"), let challenge = query["code_challenge"],
              let state = query["state"]
        else { return (400, nil) }
        serial += 1
        let code = "code-\(serial)"
        pending[code] = (redirect, challenge, query["nonce"])
        var items = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state)]
        if sendsIss { items.append(URLQueryItem(name: "iss", value: baseURL)) }
        var components = URLComponents(string: redirect)
        components?.queryItems = items
        return (302, components?.url?.absoluteString)
    }

    func token(_ form: [String: String]) throws -> (Int, String) {
        guard form["client_id"] == Self.clientID else { return (401, json(["error": "invalid_client"])) }
        switch form["grant_type"] {
        case "authorization_code"?:
            guard let code = form["code"], let entry = pending.removeValue(forKey: code), entry.redirectURI == form["redirect_uri"],
                  let verifier = form["code_verifier"],
                  Base64URL.encode(try SHA256Digest.hash(Array(verifier.utf8))) == entry.challenge
            else { return (400, json(["error": "invalid_grant"])) }
            exchanges += 1
            return (200, try tokens(subject: subject, nonce: entry.nonce))
        case "refresh_token"?:
            // Not rotated: a refresh the client refused must not cost it its login in these tests.
            guard let presented = form["refresh_token"], refreshTokens.contains(presented) else {
                return (400, json(["error": "invalid_grant"]))
            }
            refreshes += 1
            return (200, try tokens(subject: refreshSubject ?? subject, nonce: nil))
        default:
            return (400, json(["error": "unsupported_grant_type"]))
        }
    }

    private func tokens(subject: String, nonce: String?) throws -> String {
        serial += 1
        let refresh = "oidc-rt-\(serial)"
        refreshTokens.insert(refresh)
        let now = Int64(Date().timeIntervalSince1970)
        var claims = JSONObject([
            ("iss", .string(baseURL)), ("sub", .string(subject)), ("aud", .string(Self.clientID)),
            ("iat", .number(JSONNumber(now))), ("exp", .number(JSONNumber(now + 3600))),
        ])
        if let nonce { claims["nonce"] = .string(nonce) }
        if let email { claims["email"] = .string(email) }
        return json([
            "access_token": "oidc-at-\(serial)", "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh,
            "id_token": try key.signer.sign(JWTClaims(claims)),
        ])
    }

    private func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// ``OIDCServerState`` served on 127.0.0.1 (ephemeral port); its issuer is `http://127.0.0.1:PORT`.
struct OIDCTestServer: Sendable {
    let state: OIDCServerState
    let port: Int

    var issuer: String { "http://127.0.0.1:\(port)" }

    /// Starts a server, runs `body` with it, then stops it (also when `body` throws).
    static func with<T: Sendable>(_ body: @escaping @Sendable (OIDCTestServer) async throws -> T) async throws -> T {
        let state = try OIDCServerState()
        let router = Router()
        router.get(".well-known/openid-configuration") { _, _ in
            Self.json(await state.discovery())
        }
        router.get("jwks") { _, _ in Self.json(try await state.jwks()) }
        router.get("authorize") { request, _ -> Response in
            var query: [String: String] = [:]
            for item in URLComponents(string: "http://x\(request.uri)")?.queryItems ?? [] { query[item.name] = item.value ?? "" }
            let (status, location) = await state.authorize(query)
            var headers = HTTPFields()
            if let location { headers[.location] = location }
            return Response(status: .init(code: status), headers: headers)
        }
        router.post("token") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 16)
            let (status, body) = try await state.token(FormBody.parse(String(buffer: bytes)))
            return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        return try await LocalHTTPServer.run(router, label: "oidc-test-server") { port in
            await state.set(baseURL: "http://127.0.0.1:\(port)")
            return try await body(OIDCTestServer(state: state, port: port))
        }
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
