#if Hummingbird && Postgres
import Foundation
import TokenKitStore

/// The state of the test authorization server: refresh-token families with rotation and
/// reuse detection (RFC 9700 §4.14.2), issued access tokens, counters and fault injection.
actor OAuthServerState {
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

    /// When set, the token endpoint streams this answer instead of answering normally.
    var streaming: StreamingAnswer?
    /// Bytes written by streamed answers (until the client went away).
    private(set) var bytesStreamed = 0

    func set(streaming: StreamingAnswer?) { self.streaming = streaming }
    func addStreamed(_ count: Int) { bytesStreamed += count }

    /// The streamed answer to send, counting the request; `nil` to answer normally.
    func streamingAnswer() -> StreamingAnswer? {
        guard let streaming else { return nil }
        tokenRequests += 1
        return streaming
    }

    static let clientID = "test client/é"
    static let clientSecret = "s3cr:et&=+"

    private struct Family {
        var current: String
        var revoked = false
    }

    /// Successful refreshes (tokens issued by the refresh grant).
    private(set) var refreshCount = 0
    /// Requests that reached the token endpoint, whatever their outcome.
    private(set) var tokenRequests = 0
    /// Requests that reached the resource endpoint.
    private(set) var resourceRequests = 0
    /// Refresh-token reuses detected (each revokes a family).
    private(set) var reuseDetections = 0
    /// The last form the token endpoint received.
    private(set) var lastForm: [String: String] = [:]
    /// The last Authorization header the token endpoint received.
    private(set) var lastAuthorization: String?

    var tokenMode = TokenMode.normal
    var expiresIn: Int? = 3600
    /// When set, the token endpoint requires HTTP Basic client authentication.
    var requireClientSecret = false
    /// When true, the resource endpoint rejects every token.
    var resourceAlwaysRejects = false

    private var families: [Int: Family] = [:]
    private var refreshFamily: [String: Int] = [:]
    private var accessFamily: [String: Int] = [:]
    private var revokedAccess: Set<String> = []
    private var serial = 0
    private var injected: [(status: Int, body: String)] = []
    private var gateOpen = true
    private var gateWaiters: [CheckedContinuation<Void, Never>] = []

    func set(mode: TokenMode) { tokenMode = mode }
    func set(expiresIn: Int?) { self.expiresIn = expiresIn }
    func set(requireClientSecret: Bool) { self.requireClientSecret = requireClientSecret }
    func set(resourceAlwaysRejects: Bool) { self.resourceAlwaysRejects = resourceAlwaysRejects }

    /// Starts a new sign-in: a fresh family; returns its first token set (expiry set by the caller).
    func signIn(expiresAt: Date?) -> TokenSet {
        serial += 1
        let family = serial
        let access = "at-\(family)-\(serial)"
        let refresh = "rt-\(family)-\(serial)"
        families[family] = Family(current: refresh)
        refreshFamily[refresh] = family
        accessFamily[access] = family
        return TokenSet(accessToken: access, refreshToken: refresh, tokenType: "Bearer", expiresAt: expiresAt)
    }

    /// Makes the resource server reject `accessToken` from now on.
    func revoke(accessToken: String) { revokedAccess.insert(accessToken) }

    /// The next `count` refreshes fail with `status` and `body` (checked before rotation).
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

    /// Whether the refresh-token family of `refreshToken` was revoked.
    func isRevoked(refreshToken: String) -> Bool {
        refreshFamily[refreshToken].flatMap { families[$0]?.revoked } ?? false
    }

    // MARK: Endpoints

    /// Handles a token request; returns status and JSON body.
    func token(form: [String: String], authorization: String?) async -> (Int, String) {
        tokenRequests += 1
        if !gateOpen { await withCheckedContinuation { gateWaiters.append($0) } }
        lastForm = form
        lastAuthorization = authorization
        switch tokenMode {
        case .html: return (200, "<html>oops</html>")
        case .huge: return (200, #"{"access_token":""# + String(repeating: "a", count: 200_000) + #"","token_type":"Bearer"}"#)
        default: break
        }
        if !injected.isEmpty { return injected.removeFirst() }
        guard form["grant_type"] == "refresh_token" else { return error(400, "unsupported_grant_type") }
        if requireClientSecret {
            guard authorization == Self.expectedBasic, form["client_id"] == nil else { return error(401, "invalid_client") }
        } else {
            guard authorization == nil, form["client_id"] == Self.clientID else { return error(401, "invalid_client") }
        }
        guard let presented = form["refresh_token"], let familyID = refreshFamily[presented],
              var family = families[familyID], !family.revoked
        else { return error(400, "invalid_grant", "unknown or revoked refresh token") }
        guard family.current == presented else {
            family.revoked = true
            families[familyID] = family
            reuseDetections += 1
            return error(400, "invalid_grant", "refresh token reuse detected; family revoked")
        }
        serial += 1
        let access = "at-\(familyID)-\(serial)"
        accessFamily[access] = familyID
        var body: [String: Any] = ["token_type": tokenMode == .wrongTokenType ? "mac" : "bearer"]
        if tokenMode != .missingAccessToken { body["access_token"] = tokenMode == .headerInjection ? Self.injectedAccessToken : access }
        if tokenMode == .escapeInScope { body["scope"] = "read \u{1B}]0;owned\u{07}\u{1B}[2J write" }
        if tokenMode == .headerInjectionInIDToken { body["id_token"] = "eyJhbGciOiJIUzI1NiJ9.e30.c2ln\r\nX-Injected: 1" }
        if let expiresIn { body["expires_in"] = expiresIn }
        if tokenMode != .noRefreshTokenInResponse {
            let refresh = "rt-\(familyID)-\(serial)"
            refreshFamily[refresh] = familyID
            family.current = refresh
            families[familyID] = family
            body["refresh_token"] = tokenMode == .escapeInRefreshToken ? refresh + "\u{1B}[2J" : refresh
        }
        refreshCount += 1
        return (200, json(body))
    }

    /// Handles a resource request: 200 for a live token, 401 otherwise.
    func resource(authorization: String?) -> Int {
        resourceRequests += 1
        guard !resourceAlwaysRejects, let authorization, authorization.hasPrefix("Bearer ") else { return 401 }
        let token = String(authorization.dropFirst("Bearer ".count))
        guard let family = accessFamily[token], families[family]?.revoked == false, !revokedAccess.contains(token) else { return 401 }
        return 200
    }

    static var expectedBasic: String {
        let pair = "test+client%2F%C3%A9:s3cr%3Aet%26%3D%2B"
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    private func error(_ status: Int, _ code: String, _ description: String? = nil) -> (Int, String) {
        var body = ["error": code]
        if let description { body["error_description"] = description }
        return (status, json(body))
    }

    private func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
