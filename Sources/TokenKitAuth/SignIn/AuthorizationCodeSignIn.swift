import Foundation
import TokenKit
import TokenKitStore
internal import TokenKitPrimitives

/// Sign-in for a native app with the authorization code grant, PKCE (S256) and a loopback
/// redirect (RFC 6749 §4.1, RFC 7636, RFC 8252, RFC 9207, OpenID Connect Core §3.1).
///
/// ``signIn()``: binds a listener on `127.0.0.1` (ephemeral port unless ``redirectPort`` is
/// set), hands the ``BrowserOpener`` the one-time start URL (`http://127.0.0.1:PORT/start/…`,
/// which redirects once to the authorization URL, so `state`, the PKCE challenge and the
/// nonce never appear in a process's argv or environment), waits up to ``timeout`` for the
/// redirect, ignores callbacks with a wrong or missing `state` (anyone on this machine can
/// call the port), checks `iss` (required when discovery promised it, RFC 9207), exchanges
/// the code with the PKCE verifier, and admits the answer through the token-response gate
/// (``TokenResponseAdmission``: the ID token validated, with this sign-in's nonce). Returns
/// the token set with the ``LoginConfiguration`` and the ID token's `sub` (and `email`) in
/// its metadata. Nothing is stored here: the caller saves the result.
///
/// Errors: ``AuthError/Code/accessDenied`` (`error=access_denied`),
/// ``AuthError/Code/authorizationFailed`` (other OAuth errors, a replayed or expired code),
/// ``AuthError/Code/responseMismatch`` (another or a missing `iss`, a repeated parameter),
/// ``AuthError/Code/startURLReused`` (the start URL was opened twice),
/// ``AuthError/Code/invalidIDToken``, ``AuthError/Code/signInExpired`` (timeout),
/// ``AuthError/Code/network`` and ``AuthError/Code/invalidResponse`` (server failures). None
/// contains a code, token or secret.
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
        if scopes.containsByteIdentical("openid"), configuration.issuer == nil || configuration.jwksURI == nil {
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
        /// The authorization URL (only ever sent as the start URL's redirect).
        let url: URL
        /// The one-time start URL the browser is given.
        let startURL: URL
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
            try await opener.open(pending.startURL)
        } catch {
            pending.listener.closeSocket()
            _ = await received
            throw error
        }
        return try await exchange(code: try await received.get(), pending: pending)
    }

    /// The opener (tests drive the steps one by one).
    var openerForTests: any BrowserOpener { opener }

    /// Binds the listener, builds the authorization URL and the start URL leading to it.
    func prepare() throws(AuthError) -> Pending {
        let listener = try LoopbackRedirectListener(port: redirectPort)
        let state = try SignInRandom.token()
        let nonce = scopes.containsByteIdentical("openid") ? try SignInRandom.token() : nil
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
        let startURL = try listener.startURL(redirectingTo: url)
        return Pending(listener: listener, url: url, startURL: startURL, state: state, nonce: nonce, pkce: pkce)
    }

    private func receiveResult(_ pending: Pending) async -> Result<String, AuthError> {
        do { return .success(try await receiveCode(pending)) } catch { return .failure(error) }
    }

    /// Waits for the redirect and returns the code once `state` and `iss` check out.
    func receiveCode(_ pending: Pending) async throws(AuthError) -> String {
        let expectedState = pending.state
        let issuer = configuration.issuer
        let requireIssuer = configuration.requiresAuthorizationResponseIssuer
        let callback = try await pending.listener.waitForCallback(timeout: timeout) { callback in
            Self.judge(callback, state: expectedState, issuer: issuer, requireIssuer: requireIssuer)
        }
        return callback.value(of: "code") ?? ""
    }

    /// The verdict on one callback: ignored unless its `state` is this sign-in's (a forged
    /// callback cannot end the sign-in); with the right `state`, refused for another `iss`, a
    /// code without `iss` when `requireIssuer` (RFC 9207 §2.4; an error response without it is
    /// tolerated: it redeems nothing), a repeated parameter, an OAuth error or no usable code;
    /// else accepted.
    static func judge(_ callback: LoopbackRedirectListener.Callback, state: String, issuer: String?, requireIssuer: Bool) -> CallbackVerdict {
        guard !callback.duplicated.containsByteIdentical("state"), let received = callback.value(of: "state"), ConstantTime.equal(received, state) else {
            return .ignore("\(callback.value(of: "state") == nil ? "no" : "a wrong") state")
        }
        if !callback.duplicated.isEmpty {
            return .refuse(.init(code: .responseMismatch, message: "the authorization response repeats a parameter (\(callback.duplicated.sorted().joined(separator: ", ")))"))
        }
        if let iss = callback.value(of: "iss") {
            if let issuer, !iss.isByteIdentical(to: issuer) {
                return .refuse(.init(code: .responseMismatch, message: "the authorization response comes from another issuer (iss mismatch)"))
            }
        } else if requireIssuer, callback.value(of: "error") == nil {
            // Only a code can be redeemed at the wrong server (mix-up): an error without iss
            // just ends the sign-in (django-oauth-toolkit, for one, leaves it out of errors).
            return .refuse(.init(code: .responseMismatch, message: "the authorization response has no iss, though the issuer says it always sends one (RFC 9207)"))
        }
        if let error = callback.value(of: "error") {
            let shown = TokenEndpointResponse.printable(error, limit: 64)
            let detail = callback.value(of: "error_description").map { " (\(TokenEndpointResponse.printable($0, limit: 200)))" } ?? ""
            if error.isByteIdentical(to: "access_denied") {
                return .refuse(.init(code: .accessDenied, message: "access denied: the sign-in was refused\(detail)", oauthError: error))
            }
            return .refuse(.authorizationFailed("the authorization server refused the sign-in: \(shown)\(detail)", oauthError: shown))
        }
        guard let code = callback.value(of: "code"), !code.isEmpty, code.utf8.count <= 4096 else {
            return .refuse(.authorizationFailed("the authorization response has no usable code", oauthError: nil))
        }
        return .accept
    }

    /// Exchanges `code` (RFC 6749 §4.1.3 with the PKCE verifier) and admits the answer through
    /// the token-response gate (the ID token validated with this sign-in's nonce).
    func exchange(code: String, pending: Pending) async throws(AuthError) -> TokenSet {
        let form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code),
            ("redirect_uri", pending.listener.redirectURI.absoluteString), ("code_verifier", pending.pkce.verifier),
        ]
        let client = try TokenEndpointClient(
            tokenEndpoint: configuration.tokenEndpoint, clientID: configuration.clientID, clientAuthentication: clientAuthentication,
            transport: transport, clock: clock, logger: nil, maxResponseBytes: SignInTokenRequest.maxResponseBytes)
        let response = try await client.post(form, dpopKey: nil)
        let expectation = TokenResponseAdmission.Expectation(
            grant: .authorizationCode, dpop: false,
            idToken: IDTokenExpectation(
                issuer: configuration.idTokenIssuer, clientID: configuration.clientID, nonce: pending.nonce, subject: nil,
                required: scopes.containsByteIdentical("openid")),
            maxBytes: SignInTokenRequest.maxResponseBytes)
        let tokenSet = try await TokenResponseAdmission.admit(
            response, expectation, previous: TokenSet(accessToken: "", tokenType: nil), now: clock.now, transport: transport)
        return configuration.stored(in: tokenSet)
    }
}
