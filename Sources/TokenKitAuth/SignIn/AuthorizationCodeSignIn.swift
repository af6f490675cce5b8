import Foundation
import TokenKit
import TokenKitStore

/// Sign-in for a native app with the authorization code grant, PKCE (S256) and a loopback
/// redirect (RFC 6749 §4.1, RFC 7636, RFC 8252, RFC 9207, OpenID Connect Core §3.1).
///
/// ``signIn()``: binds a one-shot listener on `127.0.0.1` (ephemeral port unless
/// ``redirectPort`` is set), opens the authorization URL through the ``BrowserOpener``, waits up
/// to ``timeout`` for the redirect, checks `state` (and `iss` when the server sends it), exchanges
/// the code with the PKCE verifier, validates the ID token when `openid` was requested, and
/// returns the token set with the ``LoginConfiguration`` (and the ID token's `sub`) in its
/// metadata. Nothing is stored here: the caller saves the result.
///
/// Errors: ``AuthError/Code/accessDenied`` (`error=access_denied`),
/// ``AuthError/Code/authorizationFailed`` (other OAuth errors, a replayed or expired code),
/// ``AuthError/Code/responseMismatch`` (bad `state` or `iss`), ``AuthError/Code/invalidIDToken``,
/// ``AuthError/Code/signInExpired`` (timeout), ``AuthError/Code/network`` and
/// ``AuthError/Code/invalidResponse`` (server failures). None contains a code, token or secret.
public struct AuthorizationCodeSignIn: Sendable {
    /// Issuer, endpoints and client.
    public let configuration: LoginConfiguration
    /// The scopes requested (`openid` turns on ID-token validation).
    public let scopes: [String]
    /// The loopback port (0 = ephemeral).
    public let redirectPort: UInt16
    /// How long to wait for the browser.
    public let timeout: Duration
    private let clientAuthentication: ClientAuthentication
    private let transport: any HTTPTransport
    private let opener: any BrowserOpener
    private let clock: any TokenClock

    /// Creates the flow; throws ``AuthError/Code/invalidConfiguration`` when the configuration
    /// has no authorization endpoint, or `openid` is requested without an issuer and JWKS.
    public init(
        configuration: LoginConfiguration, scopes: [String], clientAuthentication: ClientAuthentication = .none,
        transport: any HTTPTransport, opener: any BrowserOpener, redirectPort: UInt16 = 0,
        timeout: Duration = .seconds(300), clock: any TokenClock = SystemClock()
    ) throws(AuthError) {
        guard configuration.authorizationEndpoint != nil else {
            throw .invalidConfiguration("no authorization endpoint is known (give one, or an issuer that publishes it)")
        }
        if scopes.contains("openid"), configuration.issuer == nil || configuration.jwksURI == nil {
            throw .invalidConfiguration("scope openid needs the issuer and its JWKS to validate the ID token (use --issuer)")
        }
        self.configuration = configuration
        self.scopes = scopes
        self.clientAuthentication = clientAuthentication
        self.transport = transport
        self.opener = opener
        self.redirectPort = redirectPort
        self.timeout = timeout
        self.clock = clock
    }

    /// One authorization request in flight: its listener and the values the answer must match.
    struct Pending: Sendable {
        let listener: LoopbackRedirectListener
        let url: URL
        let state: String
        let nonce: String?
        let pkce: PKCE
    }

    /// Runs the whole flow (see the type's documentation), in a `tokenkit.signin` span
    /// (`tokenkit.flow` `authorization_code`, `tokenkit.outcome`).
    public func signIn() async throws(AuthError) -> TokenSet {
        try await AuthSpan.run("tokenkit.signin", attributes: [("tokenkit.flow", "authorization_code")]) { () async throws(AuthError) in
            try await runFlow()
        }
    }

    private func runFlow() async throws(AuthError) -> TokenSet {
        let pending = try prepare()
        defer { pending.listener.closeSocket() }
        // Listen before and while the opener runs: an opener may wait for the browser, which
        // waits for our answer.
        async let received = receiveResult(pending)
        do {
            try await opener.open(pending.url)
        } catch {
            pending.listener.closeSocket()
            _ = await received
            throw error
        }
        return try await exchange(code: try await received.get(), pending: pending)
    }

    /// The opener (tests drive the steps one by one).
    var openerForTests: any BrowserOpener { opener }

    /// Binds the listener and builds the authorization URL.
    func prepare() throws(AuthError) -> Pending {
        let listener = try LoopbackRedirectListener(port: redirectPort)
        let state = try SignInRandom.token()
        let nonce = scopes.contains("openid") ? try SignInRandom.token() : nil
        let pkce = try PKCE()
        guard let endpoint = configuration.authorizationEndpoint,
              var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        else { throw .invalidConfiguration("the authorization endpoint is not a valid URL") }
        var items = components.percentEncodedQueryItems ?? []
        var pairs: [(String, String)] = [
            ("response_type", "code"), ("client_id", configuration.clientID),
            ("redirect_uri", listener.redirectURI.absoluteString), ("state", state),
            ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method),
        ]
        if !scopes.isEmpty { pairs.append(("scope", scopes.joined(separator: " "))) }
        if let nonce { pairs.append(("nonce", nonce)) }
        items += pairs.map { URLQueryItem(name: FormURLEncoding.encode($0.0), value: FormURLEncoding.encode($0.1)) }
        components.percentEncodedQueryItems = items
        guard let url = components.url else { throw .invalidConfiguration("cannot build the authorization URL") }
        return Pending(listener: listener, url: url, state: state, nonce: nonce, pkce: pkce)
    }

    private func receiveResult(_ pending: Pending) async -> Result<String, AuthError> {
        do { return .success(try await receiveCode(pending)) } catch { return .failure(error) }
    }

    /// Waits for the redirect and returns the code once `state` and `iss` check out.
    func receiveCode(_ pending: Pending) async throws(AuthError) -> String {
        let expectedState = pending.state
        let issuer = configuration.issuer
        let callback = try await pending.listener.waitForCallback(timeout: timeout) { callback in
            Self.judge(callback, state: expectedState, issuer: issuer)
        }
        return callback.parameters["code"] ?? ""
    }

    /// `nil` when the callback is the answer to this request with a code; else the error.
    static func judge(_ callback: LoopbackRedirectListener.Callback, state: String, issuer: String?) -> AuthError? {
        let p = callback.parameters
        if !callback.duplicated.isEmpty {
            return .init(code: .responseMismatch, message: "the authorization response repeats a parameter (\(callback.duplicated.sorted().joined(separator: ", ")))")
        }
        guard let received = p["state"], IDTokenValidator.constantTimeEqual(received, state) else {
            return .init(code: .responseMismatch, message: "the authorization response has \(p["state"] == nil ? "no" : "a wrong") state (not the answer to this sign-in)")
        }
        if let iss = p["iss"], let issuer, iss != issuer {
            return .init(code: .responseMismatch, message: "the authorization response comes from another issuer (iss mismatch)")
        }
        if let error = p["error"] {
            let shown = TokenEndpointResponse.printable(error, limit: 64)
            let detail = p["error_description"].map { " (\(TokenEndpointResponse.printable($0, limit: 200)))" } ?? ""
            if error == "access_denied" {
                return .init(code: .accessDenied, message: "access denied: the sign-in was refused\(detail)", oauthError: error)
            }
            return .authorizationFailed("the authorization server refused the sign-in: \(shown)\(detail)", oauthError: shown)
        }
        guard let code = p["code"], !code.isEmpty, code.utf8.count <= 4096 else {
            return .authorizationFailed("the authorization response has no usable code", oauthError: nil)
        }
        return nil
    }

    /// Exchanges `code` (RFC 6749 §4.1.3 with the PKCE verifier) and validates the result.
    func exchange(code: String, pending: Pending) async throws(AuthError) -> TokenSet {
        let form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code),
            ("redirect_uri", pending.listener.redirectURI.absoluteString), ("code_verifier", pending.pkce.verifier),
        ]
        let request = try clientAuthentication.formPost(to: configuration.tokenEndpoint, clientID: configuration.clientID, form: form, now: clock.now)
        let response = try await SignInTokenRequest.send(request, "the token request", transport: transport)
        var tokenSet = try SignInTokenRequest.tokenSet(from: response, rejecting: "the authorization code", now: clock.now)
        tokenSet = try await SignInIDToken.check(
            tokenSet, configuration: configuration, openid: scopes.contains("openid"), nonce: pending.nonce,
            transport: transport, now: clock.now)
        return configuration.stored(in: tokenSet)
    }
}

/// The ID-token step shared by the sign-in flows.
enum SignInIDToken {
    /// The metadata key holding the validated ID token's `sub`.
    static let subjectKey = "login.subject"

    /// Validates `tokenSet.idToken` when `openid` was requested (it must be present) or when
    /// the server sent one anyway; records its `sub`.
    static func check(
        _ tokenSet: TokenSet, configuration: LoginConfiguration, openid: Bool, nonce: String?,
        transport: any HTTPTransport, now: Date
    ) async throws(AuthError) -> TokenSet {
        guard let idToken = tokenSet.idToken else {
            if openid { throw AuthError(code: .invalidIDToken, message: "scope openid was requested but no ID token came back") }
            return tokenSet
        }
        guard let issuer = configuration.issuer, let jwksURI = configuration.jwksURI else {
            if openid { throw .invalidConfiguration("no issuer and JWKS to validate the ID token") }
            var copy = tokenSet
            copy.idToken = nil  // an ID token that cannot be validated is not kept
            return copy
        }
        let keys = try await SignInDiscovery.keys(jwksURI, transport: transport)
        let claims = try IDTokenValidator(issuer: issuer, clientID: configuration.clientID).validate(idToken, nonce: nonce, keys: keys, now: now)
        var copy = tokenSet
        if let subject = try? claims.subject() { copy.metadata[subjectKey] = subject }
        return copy
    }
}
