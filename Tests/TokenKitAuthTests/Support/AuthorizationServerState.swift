#if Hummingbird && Postgres
import Foundation
import TokenKit
import TokenKitCrypto
import TokenKitStore

/// The state of the tests' one authorization server (``TestAuthorizationServer``): its
/// registered clients, the grants it answers, what it issued, counters and fault injection.
///
/// Three clients are registered, as a real server registers many:
/// - the **native app** (``nativeClientID``): a public client (with ``requireClientSecret``,
///   one authenticating with HTTP Basic) that refreshes a login made elsewhere
///   (``signIn(expiresAt:)``);
/// - the **sign-in app** (``signInClientID``): a public client signing in through the browser
///   with the authorization code flow as an OpenID provider offers it (discovery, an
///   authorization endpoint that approves at once, PKCE S256, the redirect URI checked, ID
///   tokens signed with ``signingKey`` at the exchange and at each refresh, RFC 9207 `iss` in the
///   authorization response unless told otherwise); its refresh tokens do not rotate, so a
///   refresh the client refused does not cost it its login;
/// - the **service** (``serviceClientID``): a confidential client authenticating as
///   ``clientAuth`` says (`client_secret_basic`, `client_secret_post`, or `private_key_jwt`
///   with each assertion verified by TokenKit's verifier against the registered key, `aud` the
///   token endpoint, a `jti` used once), with the client credentials grant and the device grant
///   (approved at the first poll).
///
/// For all: every refresh token belongs to a family, one per login, and rotates on use; a
/// refresh token presented again after its rotation revokes its family (RFC 9700 §4.14.2).
/// DPoP proofs (RFC 9449) are checked strictly wherever one is sent (``DPoPProofCheck``), and a
/// token issued against one is bound to its key. The revocation endpoint (RFC 7009) takes the
/// same client authentication as the token endpoint. The resource endpoint accepts only what
/// the server issued and has not revoked, with the binding it was issued with.
actor AuthorizationServerState {
    // MARK: Registered clients

    static let nativeClientID = "test client/é"
    static let nativeClientSecret = "s3cr:et&=+"
    static let serviceClientID = "svc client/é"
    static let serviceClientSecret = "svc s3cr:et&=+"
    static let signInClientID = "native-app"

    /// `Authorization: Basic` for the native app (RFC 6749 §2.3.1: both parts form-encoded).
    static var nativeExpectedBasic: String { basic("test+client%2F%C3%A9:s3cr%3Aet%26%3D%2B") }
    /// `Authorization: Basic` for the service.
    static var serviceExpectedBasic: String { basic("svc+client%2F%C3%A9:svc+s3cr%3Aet%26%3D%2B") }

    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"
    static let deviceCode = "svc-device-code"

    /// The registered clients.
    enum Client: Sendable {
        case native
        case service
        case signIn
    }

    /// How the service client must authenticate.
    enum ClientAuth: Sendable {
        case basic
        case post
        case privateKeyJWT(JWTKey)
    }

    // MARK: Fault injection

    /// What the token endpoint answers besides normal behaviour.
    enum TokenMode: Sendable {
        case normal
        case html
        case huge
        case wrongTokenType
        case missingAccessToken
        case noRefreshTokenInResponse
        /// A well-formed answer whose access token carries CR/LF and a header of the server's choosing.
        case headerInjection
        /// A well-formed answer whose refresh token carries an escape sequence.
        case escapeInRefreshToken
        /// A well-formed answer whose scope carries a terminal escape sequence.
        case escapeInScope
        /// A well-formed answer whose ID token carries CR/LF between otherwise valid segments.
        case headerInjectionInIDToken
    }

    /// The access token sent in ``TokenMode/headerInjection`` mode.
    static let injectedAccessToken = "evil\r\nX-Injected: 1"

    // MARK: Configuration (each set by its `set` method)

    private(set) var tokenMode = TokenMode.normal
    /// `expires_in` of every answer; `nil` leaves it out.
    private(set) var expiresIn: Int? = 3600
    /// The native app must authenticate with HTTP Basic.
    private(set) var requireClientSecret = false
    /// The service's client authentication.
    private(set) var clientAuth = ClientAuth.basic
    /// The resource endpoint rejects every token.
    private(set) var resourceAlwaysRejects = false
    /// The token endpoint refuses requests without a DPoP proof.
    private(set) var requireDPoP = false
    /// The token endpoint ignores DPoP proofs and issues Bearer tokens (a server without DPoP).
    private(set) var ignoresDPoP = false
    /// The revocation endpoint answers 503 for tokens with these hints (without revoking them).
    private(set) var failingRevocationHints: Set<String> = []
    /// The token endpoint demands its current nonce in proofs.
    private(set) var tokenNonceRequired = false
    /// The resource endpoint demands its current nonce in proofs.
    private(set) var resourceNonceRequired = false
    /// The current DPoP nonce (both endpoints).
    private(set) var nonce = "n-1_abc"
    /// When set, the token endpoint streams this answer instead of answering.
    private(set) var streaming: StreamingAnswer?

    func set(mode: TokenMode) { tokenMode = mode }
    func set(expiresIn: Int?) { self.expiresIn = expiresIn }
    func set(requireClientSecret: Bool) { self.requireClientSecret = requireClientSecret }
    func set(clientAuth: ClientAuth) { self.clientAuth = clientAuth }
    func set(resourceAlwaysRejects: Bool) { self.resourceAlwaysRejects = resourceAlwaysRejects }
    func set(requireDPoP: Bool) { self.requireDPoP = requireDPoP }
    func set(ignoresDPoP: Bool) { self.ignoresDPoP = ignoresDPoP }
    func set(failingRevocationHints: Set<String>) { self.failingRevocationHints = failingRevocationHints }
    func set(tokenNonceRequired: Bool) { self.tokenNonceRequired = tokenNonceRequired }
    func set(resourceNonceRequired: Bool) { self.resourceNonceRequired = resourceNonceRequired }
    func set(streaming: StreamingAnswer?) { self.streaming = streaming }
    func set(baseURL: String) { self.baseURL = baseURL }
    func rotateNonce() { nonce = "n-\(UUID().uuidString)" }

    /// Discovery says `authorization_response_iss_parameter_supported` (`promisesIss`); the
    /// authorization response carries `iss` (`sendsIss`).
    private(set) var promisesIss = true
    private(set) var sendsIss = true
    /// The subject of the sign-in app's ID tokens at sign-in, and on refresh (another account
    /// when it differs).
    private(set) var subject = "user-1"
    private(set) var refreshSubject: String?
    private(set) var email: String? = "alice@example.com"

    func set(promisesIss: Bool, sendsIss: Bool) {
        self.promisesIss = promisesIss
        self.sendsIss = sendsIss
    }
    func set(refreshSubject: String?) { self.refreshSubject = refreshSubject }

    /// The next `count` token requests fail with `status` and `body` (after client
    /// identification, before any grant is looked at).
    func injectFailures(_ count: Int, status: Int = 503, body: String = #"{"error":"temporarily_unavailable"}"#) {
        injected += Array(repeating: (status, body), count: count)
    }

    /// Holds token requests at the gate until ``openGate()``.
    func closeGate() { gateOpen = false }

    func openGate() {
        gateOpen = true
        let waiting = gateWaiters
        gateWaiters = []
        for waiter in waiting { waiter.resume() }
    }

    // MARK: Counters and records

    /// Requests that reached the token endpoint, whatever their outcome.
    private(set) var tokenRequests = 0
    /// Access tokens issued by the token endpoint (every grant).
    private(set) var issued = 0
    /// Successful refreshes (tokens issued by the refresh grant).
    private(set) var refreshCount = 0
    /// Refresh-token reuses detected (each revokes a family).
    private(set) var reuseDetections = 0
    /// Requests that reached the resource endpoint, and those it accepted.
    private(set) var resourceRequests = 0
    private(set) var resourceOK = 0
    /// Requests that reached the device authorization endpoint.
    private(set) var deviceRequests = 0
    /// Requests that reached the authorization endpoint, and codes exchanged.
    private(set) var authorizeRequests = 0
    private(set) var exchanges = 0
    /// The last form and Authorization header the token endpoint received.
    private(set) var lastForm: [String: String] = [:]
    private(set) var lastAuthorization: String?
    /// The reason the last request was refused, for test messages.
    private(set) var lastRefusal: String?
    /// The claims of every client assertion that was accepted, in order.
    private(set) var assertions: [JWTClaims] = []
    /// Tokens revoked through the revocation endpoint, with their hints.
    private(set) var revocations: [(token: String, hint: String?)] = []
    /// Every proof `jkt` that got a token, in order.
    private(set) var boundKeys: [String] = []
    /// Bytes written by streamed answers (until the client went away).
    private(set) var bytesStreamed = 0

    func addStreamed(_ count: Int) { bytesStreamed += count }

    /// The streamed answer to send, counting the request; `nil` to answer normally.
    func streamingAnswer() -> StreamingAnswer? {
        guard let streaming else { return nil }
        tokenRequests += 1
        return streaming
    }

    // MARK: What was issued

    private struct Family {
        let client: Client
        var current: String
        var revoked = false
    }

    /// An issued access token: its family (none for client credentials) and its DPoP binding.
    private struct AccessGrant {
        let family: Int?
        let jkt: String?
    }

    private var families: [Int: Family] = [:]
    private var refreshFamily: [String: Int] = [:]
    private var access: [String: AccessGrant] = [:]
    private var revokedAccess: Set<String> = []
    private var serial = 0
    private var injected: [(status: Int, body: String)] = []
    private var gateOpen = true
    private var gateWaiters: [CheckedContinuation<Void, Never>] = []
    private var seenJTIs: Set<String> = []
    /// Authorization codes not yet exchanged.
    private var pendingCodes: [String: (redirectURI: String, challenge: String, nonce: String?)] = [:]
    private let clock: any TokenClock
    /// The key the ID tokens are signed with, published at `/jwks`.
    let signingKey: TestSigningKey
    /// `http://127.0.0.1:PORT`, set when the server starts.
    private var baseURL = ""

    init(clock: any TokenClock = SystemClock()) throws {
        self.clock = clock
        signingKey = try TestSigningKey(kid: "test-authorization-server")
    }

    /// A login of the native app made elsewhere: a fresh family and its first token set
    /// (expiry chosen by the caller).
    func signIn(expiresAt: Date?) -> TokenSet {
        serial += 1
        let family = serial
        let accessToken = "at-\(family)-\(serial)", refreshToken = "rt-\(family)-\(serial)"
        families[family] = Family(client: .native, current: refreshToken)
        refreshFamily[refreshToken] = family
        access[accessToken] = AccessGrant(family: family, jkt: nil)
        return TokenSet(accessToken: accessToken, refreshToken: refreshToken, tokenType: "Bearer", expiresAt: expiresAt)
    }

    /// Makes the resource endpoint reject `accessToken` from now on.
    func revoke(accessToken: String) { revokedAccess.insert(accessToken) }

    /// Whether the family of `refreshToken` was revoked.
    func isRevoked(refreshToken: String) -> Bool {
        refreshFamily[refreshToken].flatMap { families[$0]?.revoked } ?? false
    }

    // MARK: Endpoints

    /// An endpoint's answer: status, body (JSON unless said otherwise) and extra headers.
    struct Answer: Sendable {
        var status: Int
        var body: String
        var headers: [(String, String)] = []
    }

    /// The token endpoint.
    func token(form: [String: String], authorization: String?, dpop: String?) async -> Answer {
        tokenRequests += 1
        if !gateOpen { await withCheckedContinuation { gateWaiters.append($0) } }
        lastForm = form
        lastAuthorization = authorization
        switch tokenMode {
        case .html: return Answer(status: 200, body: "<html>oops</html>")
        case .huge: return Answer(status: 200, body: #"{"access_token":""# + String(repeating: "a", count: 200_000) + #"","token_type":"Bearer"}"#)
        default: break
        }
        if !injected.isEmpty {
            let (status, body) = injected.removeFirst()
            return Answer(status: status, body: body)
        }
        let client = identify(form: form, authorization: authorization)
        let grant = form["grant_type"] ?? ""
        let grants = switch client {
        case .native: ["refresh_token"]
        case .signIn: ["authorization_code", "refresh_token"]
        case .service: ["client_credentials", Self.deviceGrant, "refresh_token"]
        }
        guard grants.contains(grant) else { return refuse(400, "unsupported_grant_type", "grant \(grant)") }
        if let reason = clientAuthFailure(client: client, form: form, authorization: authorization) {
            return refuse(401, "invalid_client", reason)
        }
        var family: Int?
        var nonceForIDToken: String?
        switch grant {
        case "authorization_code":
            guard let code = form["code"], let pending = pendingCodes.removeValue(forKey: code), pending.redirectURI == form["redirect_uri"],
                  let verifier = form["code_verifier"], Base64URL.encode((try? SHA256Digest.hash(Array(verifier.utf8))) ?? []) == pending.challenge
            else { return refuse(400, "invalid_grant", "code, redirect URI or code verifier") }
            exchanges += 1
            nonceForIDToken = pending.nonce
            family = newFamily(client: client)
        case "refresh_token":
            switch rotate(form["refresh_token"], client: client) {
            case .success(let rotated): family = rotated
            case .failure(let refusal): return refusal.answer
            }
        case Self.deviceGrant:
            guard form["device_code"] == Self.deviceCode else { return refuse(400, "invalid_grant", "device code") }
            family = newFamily(client: client)
        default:
            break
        }
        var jkt: String?
        if let dpop, !ignoresDPoP {
            switch check(proof: dpop, method: "POST", url: baseURL + "/token", accessToken: nil, nonceRequired: tokenNonceRequired) {
            case .success(let thumbprint): jkt = thumbprint
            case .failure(.nonce):
                var answer = refuse(400, "use_dpop_nonce", "token endpoint nonce")
                answer.headers.append(("DPoP-Nonce", nonce))
                return answer
            case .failure(.invalid(let reason)): return refuse(400, "invalid_dpop_proof", reason)
            }
        } else if requireDPoP {
            return refuse(400, "invalid_request", "DPoP proof required")
        }
        if grant == "refresh_token" { refreshCount += 1 }
        var body = issue(client: client, family: family, jkt: jkt)
        if client == .signIn {
            let idSubject = grant == "refresh_token" ? refreshSubject ?? subject : subject
            guard let signed = try? idToken(subject: idSubject, nonce: nonceForIDToken) else { return refuse(500, "server_error", "signing the ID token") }
            body["id_token"] = signed
        }
        var answer = Answer(status: 200, body: json(body))
        if tokenNonceRequired { answer.headers.append(("DPoP-Nonce", nonce)) }
        return answer
    }

    /// The OpenID provider's discovery document (its issuer: ``baseURL``).
    func discovery() -> String {
        json([
            "issuer": baseURL, "authorization_endpoint": baseURL + "/authorize", "token_endpoint": baseURL + "/token",
            "jwks_uri": baseURL + "/jwks", "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": promisesIss,
        ])
    }

    /// The JWKS with ``signingKey``'s public key.
    func jwks() throws -> String { try TestSigningKey.jwks([signingKey]) }

    /// The authorization endpoint, for the sign-in app: approves at once with a 302 to
    /// `redirect_uri` (loopback only) carrying `code`, `state` and, unless told otherwise, `iss`.
    func authorize(_ query: [String: String]) -> (status: Int, location: String?) {
        authorizeRequests += 1
        guard query["client_id"] == Self.signInClientID, query["response_type"] == "code", query["code_challenge_method"] == "S256",
              let redirect = query["redirect_uri"], redirect.hasPrefix("http://127.0.0.1:"), let challenge = query["code_challenge"],
              let state = query["state"]
        else { return (400, nil) }
        serial += 1
        let code = "code-\(serial)"
        pendingCodes[code] = (redirect, challenge, query["nonce"])
        var items = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state)]
        if sendsIss { items.append(URLQueryItem(name: "iss", value: baseURL)) }
        var components = URLComponents(string: redirect)
        components?.queryItems = items
        return (302, components?.url?.absoluteString)
    }

    /// The device authorization endpoint (RFC 8628 §3.2), client authentication required.
    func device(form: [String: String], authorization: String?) -> Answer {
        deviceRequests += 1
        let client = identify(form: form, authorization: authorization)
        if let reason = clientAuthFailure(client: client, form: form, authorization: authorization) {
            return refuse(401, "invalid_client", reason)
        }
        return Answer(status: 200, body: json([
            "device_code": Self.deviceCode, "user_code": "WDJB-MJHT", "verification_uri": baseURL + "/activate",
            "expires_in": 600, "interval": 1,
        ]))
    }

    /// The revocation endpoint (RFC 7009), client authentication required. A refresh token's
    /// family goes with it.
    func revoke(form: [String: String], authorization: String?) -> Answer {
        let client = identify(form: form, authorization: authorization)
        if let reason = clientAuthFailure(client: client, form: form, authorization: authorization) {
            return refuse(401, "invalid_client", reason)
        }
        guard let token = form["token"] else { return refuse(400, "invalid_request", "no token") }
        if let hint = form["token_type_hint"], failingRevocationHints.contains(hint) {
            return Answer(status: 503, body: json(["error": "temporarily_unavailable"]))
        }
        revocations.append((token, form["token_type_hint"]))
        if let family = refreshFamily[token] { families[family]?.revoked = true }
        revokedAccess.insert(token)
        return Answer(status: 200, body: "")
    }

    /// The resource endpoint: 200 `hello` for a live token presented with its binding (Bearer,
    /// or DPoP with a valid proof by the bound key), 401 with a challenge otherwise.
    func resource(authorization: String?, dpop: String?) -> Answer {
        resourceRequests += 1
        guard let authorization else { return Answer(status: 401, body: "", headers: [("WWW-Authenticate", "Bearer")]) }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard !resourceAlwaysRejects, parts.count == 2, let grant = access[parts[1]], !revokedAccess.contains(parts[1]),
              grant.family.map({ families[$0]?.revoked == false }) ?? true
        else {
            lastRefusal = resourceAlwaysRejects ? "the resource endpoint rejects every token" : "unknown or revoked token"
            return Answer(status: 401, body: "", headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])
        }
        switch (parts[0], grant.jkt) {
        case ("Bearer", nil):
            resourceOK += 1
            return Answer(status: 200, body: "hello")
        case ("DPoP", let jkt?):
            switch check(proof: dpop, method: "GET", url: baseURL + "/resource", accessToken: parts[1], nonceRequired: resourceNonceRequired) {
            case .success(let thumbprint) where thumbprint == jkt:
                resourceOK += 1
                return Answer(status: 200, body: "hello", headers: resourceNonceRequired ? [("DPoP-Nonce", nonce)] : [])
            case .success:
                lastRefusal = "proof key does not match the token's binding"
                return Answer(status: 401, body: "", headers: [("WWW-Authenticate", #"DPoP error="invalid_token""#)])
            case .failure(.nonce):
                lastRefusal = "resource nonce"
                return Answer(status: 401, body: "", headers: [
                    ("WWW-Authenticate", #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#),
                    ("DPoP-Nonce", nonce),
                ])
            case .failure(.invalid(let reason)):
                lastRefusal = reason
                return Answer(status: 401, body: "", headers: [("WWW-Authenticate", #"DPoP error="invalid_dpop_proof""#)])
            }
        default:
            lastRefusal = "wrong authorization scheme \(parts[0]) for this token"
            return Answer(status: 401, body: "", headers: [("WWW-Authenticate", #"DPoP error="invalid_token""#)])
        }
    }

    // MARK: Grants

    /// Rotates the refresh token `presented` of `client`: its family, or the refusal. A token
    /// presented after its rotation revokes the family.
    private func rotate(_ presented: String?, client: Client) -> Result<Int, RefusalAnswer> {
        guard let presented, let id = refreshFamily[presented], let family = families[id], !family.revoked, family.client == client else {
            return .failure(RefusalAnswer(refuse(400, "invalid_grant", "unknown or revoked refresh token", described: true)))
        }
        // The sign-in app's refresh tokens do not rotate: each one issued stays usable.
        guard family.current == presented || client == .signIn else {
            families[id]?.revoked = true
            reuseDetections += 1
            return .failure(RefusalAnswer(refuse(400, "invalid_grant", "refresh token reuse detected; family revoked", described: true)))
        }
        return .success(id)
    }

    private struct RefusalAnswer: Error {
        let answer: Answer
        init(_ answer: Answer) { self.answer = answer }
    }

    private func newFamily(client: Client) -> Int {
        serial += 1
        families[serial] = Family(client: client, current: "")
        return serial
    }

    /// The token response for `client`: a new access token (in `family`, bound to `jkt`), a
    /// new refresh token of the family (rotation), shaped by ``tokenMode``.
    private func issue(client: Client, family: Int?, jkt: String?) -> [String: Any] {
        issued += 1
        serial += 1
        let native = client == .native
        let accessToken = switch client {
        case .native: "at-\(family ?? 0)-\(serial)"
        case .signIn: "oidc-at-\(serial)"
        case .service: "svc-at-\(issued)-\(UUID().uuidString.prefix(8))"
        }
        access[accessToken] = AccessGrant(family: family, jkt: jkt)
        if let jkt { boundKeys.append(jkt) }
        // The native app's server spells the type in lower case (RFC 6749 §5.1: case-insensitive).
        var body: [String: Any] = ["token_type": tokenMode == .wrongTokenType ? "mac" : jkt != nil ? "DPoP" : native ? "bearer" : "Bearer"]
        if tokenMode != .missingAccessToken { body["access_token"] = tokenMode == .headerInjection ? Self.injectedAccessToken : accessToken }
        if tokenMode == .escapeInScope { body["scope"] = "read \u{1B}]0;owned\u{07}\u{1B}[2J write" }
        if tokenMode == .headerInjectionInIDToken { body["id_token"] = "eyJhbGciOiJIUzI1NiJ9.e30.c2ln\r\nX-Injected: 1" }
        if let expiresIn { body["expires_in"] = expiresIn }
        if let family, tokenMode != .noRefreshTokenInResponse {
            let refreshToken = switch client {
            case .native: "rt-\(family)-\(serial)"
            case .signIn: "oidc-rt-\(serial)"
            case .service: "svc-rt-\(UUID().uuidString)"
            }
            refreshFamily[refreshToken] = family
            families[family]?.current = refreshToken
            body["refresh_token"] = tokenMode == .escapeInRefreshToken ? refreshToken + "\u{1B}[2J" : refreshToken
        } else if family == nil {
            // RFC 6749 §4.4.3: should not be sent with client credentials; a client must not rely on it.
            body["refresh_token"] = "ignored-refresh-token"
        }
        return body
    }

    // MARK: Checks

    /// The client a request speaks for: the native app when the HTTP Basic user (form-decoded)
    /// or `client_id` names it, the service otherwise (its authentication decides the rest).
    private func identify(form: [String: String], authorization: String?) -> Client {
        if let authorization, authorization.hasPrefix("Basic "),
           let decoded = Data(base64Encoded: String(authorization.dropFirst("Basic ".count))),
           let pair = String(data: decoded, encoding: .utf8), let user = pair.split(separator: ":", maxSplits: 1).first {
            return client(named: FormBody.decode(user))
        }
        return client(named: form["client_id"])
    }

    private func client(named id: String?) -> Client {
        switch id {
        case Self.nativeClientID?: .native
        case Self.signInClientID?: .signIn
        default: .service
        }
    }

    /// Why `client`'s authentication fails, or `nil` when it passes.
    private func clientAuthFailure(client: Client, form: [String: String], authorization: String?) -> String? {
        if client == .signIn {
            return authorization == nil ? nil : "sign-in app: a public client sent credentials"
        }
        if client == .native {
            if requireClientSecret {
                guard authorization == Self.nativeExpectedBasic, form["client_id"] == nil else { return "native app: basic credentials wrong or missing" }
            } else {
                guard authorization == nil else { return "native app: a public client sent credentials" }
            }
            return nil
        }
        switch clientAuth {
        case .basic:
            guard authorization == Self.serviceExpectedBasic else { return "basic credentials wrong or missing" }
            guard form["client_secret"] == nil, form["client_assertion"] == nil else { return "two authentication methods" }
        case .post:
            guard authorization == nil else { return "unexpected Authorization header" }
            guard form["client_id"] == Self.serviceClientID, form["client_secret"] == Self.serviceClientSecret else { return "post credentials wrong" }
        case .privateKeyJWT(let key):
            guard authorization == nil, form["client_secret"] == nil else { return "a secret was sent with private_key_jwt" }
            guard form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" else { return "assertion type" }
            if let id = form["client_id"], id != Self.serviceClientID { return "client_id does not match" }
            guard let assertion = form["client_assertion"] else { return "no assertion" }
            let verifier = JWTVerifier(key: key, options: ValidationOptions(
                requiredClaims: ["exp", "iat", "jti", "iss", "sub", "aud"], issuers: [Self.serviceClientID],
                audiences: [baseURL + "/token"], subject: Self.serviceClientID, clock: FixedClock(clock.now)))
            do {
                let claims = try verifier.verify(assertion).claims
                guard let jti = try claims.jwtID(), let exp = try claims.expiration(), let iat = try claims.issuedAt() else { return "claims" }
                guard exp - iat <= 300 else { return "assertion lives too long" }
                guard seenJTIs.insert(jti).inserted else { return "assertion jti replayed" }
                assertions.append(claims)
            } catch {
                return "assertion: \(error.reason)"
            }
        }
        return nil
    }

    /// Checks a DPoP proof (``DPoPProofCheck``), recording its `jti`; the thumbprint of its key.
    private func check(proof: String?, method: String, url: String, accessToken: String?, nonceRequired: Bool) -> Result<String, DPoPProofCheck.Failure> {
        let result = DPoPProofCheck.verify(
            proof, method: method, url: url, accessToken: accessToken, nonce: nonceRequired ? nonce : nil, now: clock.now)
        guard case .success(let checked) = result else { return result.map(\.thumbprint) }
        guard seenJTIs.insert(checked.jti).inserted else { return .failure(.invalid("jti replayed")) }
        return .success(checked.thumbprint)
    }

    /// An ID token for the sign-in app, issued by ``baseURL``, valid for an hour.
    private func idToken(subject: String, nonce: String?) throws -> String {
        let now = Int64(clock.now.timeIntervalSince1970)
        var claims = JSONObject([
            ("iss", .string(baseURL)), ("sub", .string(subject)), ("aud", .string(Self.signInClientID)),
            ("iat", .number(JSONNumber(now))), ("exp", .number(JSONNumber(now + 3600))),
        ])
        if let nonce { claims["nonce"] = .string(nonce) }
        if let email { claims["email"] = .string(email) }
        return try signingKey.signer.sign(JWTClaims(claims))
    }

    private func refuse(_ status: Int, _ code: String, _ reason: String, described: Bool = false) -> Answer {
        lastRefusal = reason
        var body = ["error": code]
        if described { body["error_description"] = reason }
        return Answer(status: status, body: json(body))
    }

    private func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static func basic(_ pair: String) -> String { "Basic " + Data(pair.utf8).base64EncodedString() }
}
#endif
