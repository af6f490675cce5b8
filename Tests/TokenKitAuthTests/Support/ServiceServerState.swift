#if Hummingbird && Postgres
import Foundation
import TokenKit
import TokenKitCrypto

/// The state of the test server for service clients: the client credentials grant with
/// `client_secret_basic`, `client_secret_post` or `private_key_jwt` (assertions verified with
/// TokenKit's verifier against the registered public key), DPoP-bound tokens (proofs verified
/// strictly: `typ`, signature by the header's `jwk`, `htm`, `htu`, `iat`, unique `jti`, `ath`,
/// `nonce`) and a resource endpoint that accepts only what it issued. For logins of confidential
/// clients it also offers the device grant (approved at the first poll), the refresh grant
/// and revocation, each requiring the same client authentication (`aud` of every assertion:
/// the token endpoint).
actor ServiceServerState {
    /// How the client must authenticate.
    enum ClientAuth: Sendable {
        case basic
        case post
        case privateKeyJWT(JWTKey)
    }

    static let clientID = "svc client/é"
    static let clientSecret = "svc s3cr:et&=+"

    var clientAuth = ClientAuth.basic
    var expiresIn = 3600
    /// The token endpoint refuses requests without a DPoP proof.
    var requireDPoP = false
    /// The token endpoint ignores DPoP proofs and issues Bearer tokens (a server without DPoP).
    var ignoresDPoP = false
    /// The revocation endpoint answers 503 for tokens with these hints (without revoking them).
    var failingRevocationHints: Set<String> = []
    /// The token endpoint demands its current nonce in proofs.
    var tokenNonceRequired = false
    /// The resource endpoint demands its current nonce in proofs.
    var resourceNonceRequired = false
    /// The current nonce (both endpoints).
    private(set) var nonce = "n-1_abc"

    private(set) var tokenRequests = 0
    private(set) var issued = 0
    private(set) var resourceRequests = 0
    private(set) var resourceOK = 0
    private(set) var lastForm: [String: String] = [:]
    private(set) var lastAuthorization: String?
    /// The reason the last request was refused, for test messages.
    private(set) var lastRefusal: String?
    /// The claims of every client assertion that was accepted, in order.
    private(set) var assertions: [JWTClaims] = []
    /// Requests that reached the device authorization endpoint.
    private(set) var deviceRequests = 0
    /// Tokens revoked through the revocation endpoint, with their hints.
    private(set) var revocations: [(token: String, hint: String?)] = []
    private var refreshTokens: Set<String> = []
    /// Every proof `jkt` that got a token, in order.
    private(set) var boundKeys: [String] = []
    private var tokens: [String: String?] = [:]
    private var revoked: Set<String> = []
    private var seenJTIs: Set<String> = []
    private let clock: any TokenClock
    /// `http://127.0.0.1:PORT`, set when the server starts.
    private var baseURL = ""

    init(clock: any TokenClock) { self.clock = clock }

    func set(baseURL: String) { self.baseURL = baseURL }
    func set(clientAuth: ClientAuth) { self.clientAuth = clientAuth }
    func set(expiresIn: Int) { self.expiresIn = expiresIn }
    func set(requireDPoP: Bool) { self.requireDPoP = requireDPoP }
    func set(ignoresDPoP: Bool) { self.ignoresDPoP = ignoresDPoP }
    func set(failingRevocationHints: Set<String>) { self.failingRevocationHints = failingRevocationHints }
    func set(tokenNonceRequired: Bool) { self.tokenNonceRequired = tokenNonceRequired }
    func set(resourceNonceRequired: Bool) { self.resourceNonceRequired = resourceNonceRequired }
    func rotateNonce() { nonce = "n-\(UUID().uuidString)" }
    func revoke(_ token: String) { revoked.insert(token) }

    /// Answer of the token endpoint: status, JSON body, extra headers.
    struct Answer: Sendable {
        var status: Int
        var body: String
        var headers: [(String, String)] = []
    }

    func token(form: [String: String], authorization: String?, dpop: String?) -> Answer {
        let endpoint = baseURL + "/token"
        tokenRequests += 1
        lastForm = form
        lastAuthorization = authorization
        let grant = form["grant_type"] ?? ""
        guard ["client_credentials", Self.deviceGrant, "refresh_token"].contains(grant) else {
            return refuse(400, "unsupported_grant_type", "grant")
        }
        if let reason = clientAuthFailure(form: form, authorization: authorization, endpoint: endpoint) {
            return refuse(401, "invalid_client", reason)
        }
        if grant == Self.deviceGrant, form["device_code"] != Self.deviceCode { return refuse(400, "invalid_grant", "device code") }
        if grant == "refresh_token" {
            guard let presented = form["refresh_token"], refreshTokens.remove(presented) != nil else {
                return refuse(400, "invalid_grant", "refresh token")
            }
        }
        var jkt: String?
        if let dpop, !ignoresDPoP {
            switch verifyProof(dpop, method: "POST", url: endpoint, accessToken: nil, nonceRequired: tokenNonceRequired) {
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
        issued += 1
        let access = "svc-at-\(issued)-\(UUID().uuidString.prefix(8))"
        tokens[access] = .some(jkt)
        if let jkt { boundKeys.append(jkt) }
        let body: [String: Any] = [
            "access_token": access, "token_type": jkt == nil ? "Bearer" : "DPoP", "expires_in": expiresIn,
            // RFC 6749 §4.4.3: should not be sent with client credentials; a client must not rely on it.
            "refresh_token": grant == "client_credentials" ? "ignored-refresh-token" : newRefreshToken(),
        ]
        return Answer(status: 200, body: json(body), headers: tokenNonceRequired ? [("DPoP-Nonce", nonce)] : [])
    }

    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"
    static let deviceCode = "svc-device-code"

    /// The device authorization endpoint (RFC 8628 §3.2), client authentication required.
    func device(form: [String: String], authorization: String?) -> Answer {
        deviceRequests += 1
        if let reason = clientAuthFailure(form: form, authorization: authorization, endpoint: baseURL + "/token") {
            return refuse(401, "invalid_client", reason)
        }
        return Answer(status: 200, body: json([
            "device_code": Self.deviceCode, "user_code": "WDJB-MJHT", "verification_uri": baseURL + "/activate",
            "expires_in": 600, "interval": 1,
        ]))
    }

    /// The revocation endpoint (RFC 7009), client authentication required.
    func revoke(form: [String: String], authorization: String?) -> Answer {
        if let reason = clientAuthFailure(form: form, authorization: authorization, endpoint: baseURL + "/token") {
            return refuse(401, "invalid_client", reason)
        }
        guard let token = form["token"] else { return refuse(400, "invalid_request", "no token") }
        if let hint = form["token_type_hint"], failingRevocationHints.contains(hint) {
            return Answer(status: 503, body: json(["error": "temporarily_unavailable"]))
        }
        revocations.append((token, form["token_type_hint"]))
        refreshTokens.remove(token)
        revoked.insert(token)
        return Answer(status: 200, body: "")
    }

    private func newRefreshToken() -> String {
        let token = "svc-rt-\(UUID().uuidString)"
        refreshTokens.insert(token)
        return token
    }

    func resource(authorization: String?, dpop: String?) -> Answer {
        let url = baseURL + "/resource"
        resourceRequests += 1
        guard let authorization else { return Answer(status: 401, body: "", headers: [("WWW-Authenticate", "Bearer")]) }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let binding = tokens[parts[1]], !revoked.contains(parts[1]) else {
            lastRefusal = "unknown or revoked token"
            return Answer(status: 401, body: "", headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])
        }
        switch (parts[0], binding) {
        case ("Bearer", nil):
            resourceOK += 1
            return Answer(status: 200, body: "hello")
        case ("DPoP", let jkt?):
            switch verifyProof(dpop, method: "GET", url: url, accessToken: parts[1], nonceRequired: resourceNonceRequired) {
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

    // MARK: Checks

    private func clientAuthFailure(form: [String: String], authorization: String?, endpoint: String) -> String? {
        switch clientAuth {
        case .basic:
            guard authorization == Self.expectedBasic else { return "basic credentials wrong or missing" }
            guard form["client_secret"] == nil, form["client_assertion"] == nil else { return "two authentication methods" }
        case .post:
            guard authorization == nil else { return "unexpected Authorization header" }
            guard form["client_id"] == Self.clientID, form["client_secret"] == Self.clientSecret else { return "post credentials wrong" }
        case .privateKeyJWT(let key):
            guard authorization == nil, form["client_secret"] == nil else { return "a secret was sent with private_key_jwt" }
            guard form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" else { return "assertion type" }
            if let id = form["client_id"], id != Self.clientID { return "client_id does not match" }
            guard let assertion = form["client_assertion"] else { return "no assertion" }
            let verifier = JWTVerifier(key: key, options: ValidationOptions(
                requiredClaims: ["exp", "iat", "jti", "iss", "sub", "aud"], issuers: [Self.clientID],
                audiences: [endpoint], subject: Self.clientID, clock: FixedClock(clock.now)))
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

    enum ProofFailure: Error { case nonce, invalid(String) }

    /// Verifies a DPoP proof; returns the thumbprint of its key.
    private func verifyProof(_ proof: String?, method: String, url: String, accessToken: String?, nonceRequired: Bool) -> Result<String, ProofFailure> {
        guard let proof else { return .failure(.invalid("no DPoP proof")) }
        do {
            let unverified = try UnverifiedJWT(parsing: proof)
            guard unverified.header.type == "dpop+jwt" else { return .failure(.invalid("typ")) }
            guard let jwk = unverified.header.raw["jwk"]?.objectValue, jwk["d"] == nil else { return .failure(.invalid("jwk header")) }
            let key = try JWTKey(jwk: jwk)
            guard key.keyType != "oct", !key.canSign else { return .failure(.invalid("jwk is not a public key")) }
            let verifier = JWTVerifier(key: key, options: ValidationOptions(
                requiredClaims: ["jti", "htm", "htu", "iat"], type: "dpop+jwt", clock: FixedClock(clock.now)))
            let claims = try verifier.verify(proof).claims
            guard try claims.string("htm") == method else { return .failure(.invalid("htm")) }
            guard try claims.string("htu") == url else { return .failure(.invalid("htu \(String(describing: try? claims.string("htu"))) != \(url)")) }
            guard let iat = try claims.issuedAt(), abs(iat - clock.now.timeIntervalSince1970) <= 60 else { return .failure(.invalid("iat")) }
            if let accessToken {
                let expected = Base64URL.encode(try SHA256Digest.hash(Array(accessToken.utf8)))
                guard try claims.string("ath") == expected else { return .failure(.invalid("ath")) }
            } else if claims["ath"] != nil {
                return .failure(.invalid("ath on a token request"))
            }
            if nonceRequired, try claims.string("nonce") != nonce { return .failure(.nonce) }
            guard let jti = try claims.jwtID(), seenJTIs.insert(jti).inserted else { return .failure(.invalid("jti replayed")) }
            return .success(try key.thumbprint())
        } catch let error as JWTError {
            return .failure(.invalid("proof: \(error.reason)"))
        } catch {
            return .failure(.invalid("proof: \(error)"))
        }
    }

    static var expectedBasic: String {
        let pair = "svc+client%2F%C3%A9:svc+s3cr%3Aet%26%3D%2B"
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    private func refuse(_ status: Int, _ code: String, _ reason: String) -> Answer {
        lastRefusal = reason
        return Answer(status: status, body: json(["error": code]))
    }

    private func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
