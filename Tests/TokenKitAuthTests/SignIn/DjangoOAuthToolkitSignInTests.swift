#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
@testable import TokenKitAuth
import TokenKitStore
import TokenKitURLSession
import TokenKitTestSupport

/// Sign-in against a real django-oauth-toolkit server (scripts/with-oauth-server): PKCE through
/// the loopback listener, `state`, replayed codes, ID tokens, the device grant and revocation.
@Suite("Sign-in against django-oauth-toolkit", .enabled(if: OAuthServerEnvironment.enabled), .serialized)
struct DjangoOAuthToolkitSignInTests {
    let transport = URLSessionTransport(timeout: .seconds(30))

    func configuration(_ env: OAuthServerEnvironment, client: String) async throws -> LoginConfiguration {
        // One Django process serves every sign-in test of the busy second pass: give its
        // discovery document a minute rather than the default 30 s.
        try await SignInDiscovery.configuration(
            issuer: env.issuer, clientID: env[client], transport: transport, options: RemoteFetchOptions(timeout: .seconds(60)))
    }

    /// An opener that runs the scripted user agent with `action` and records the callback URL
    /// in `callbacks` (which the opener keeps alive: it lives as long as the sign-in holding it).
    func browser(_ env: OAuthServerEnvironment, action: String, callbacks: PrivateTemporaryDirectory) -> ClosureBrowserOpener {
        ClosureBrowserOpener { url throws(AuthError) in
            let status: Int32
            do {
                status = try await env.runBrowser([url.absoluteString], extra: [
                    "TOKENKIT_OAUTH_BROWSER_ACTION": action, "TOKENKIT_OAUTH_BROWSER_CALLBACK_FILE": callbacks.file("callback"),
                ])
            } catch { throw .network("browser.py did not finish") }
            guard status == 0 else { throw .network("browser.py failed with status \(status)") }
        }
    }

    /// A code-flow sign-in whose browser is `browser.py` doing `action`; the callback URL it
    /// saw is recorded in a private directory that lives as long as this value and its flow.
    struct ScriptedSignIn {
        let flow: AuthorizationCodeSignIn
        let directory: PrivateTemporaryDirectory

        /// The callback URL the browser saw (after the opener ran).
        func capturedCallback() throws -> String { try String(contentsOfFile: directory.file("callback"), encoding: .utf8) }
    }

    /// A ``ScriptedSignIn`` of `configuration` (the native client's unless given) for `scopes`.
    func scriptedSignIn(
        _ env: OAuthServerEnvironment, configuration given: LoginConfiguration? = nil, scopes: [String] = ["read"], action: String
    ) async throws -> ScriptedSignIn {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-callback")
        var configuration = given
        if configuration == nil { configuration = try await self.configuration(env, client: "NATIVE_CLIENT_ID") }
        let flow = try AuthorizationCodeSignIn(
            configuration: try #require(configuration), scopes: scopes, transport: transport,
            opener: browser(env, action: action, callbacks: directory), timeout: .seconds(60))
        return ScriptedSignIn(flow: flow, directory: directory)
    }


    @Test("PKCE sign-in returns a validated token set with the login configuration")
    func pkceSignIn() async throws {
        let env = try OAuthServerEnvironment.require()
        let signIn = try await scriptedSignIn(env, scopes: ["openid", "read"], action: "approve")
        let flow = signIn.flow
        let tokenSet = try await flow.signIn()
        #expect(!tokenSet.accessToken.isEmpty)
        #expect(tokenSet.refreshToken != nil)
        #expect(tokenSet.idToken != nil)
        #expect(tokenSet.metadata["login.subject"] == "1")
        let stored = try #require(try LoginConfiguration(storedIn: tokenSet))
        #expect(stored.issuer == env.issuer)
        #expect(stored.revocationEndpoint != nil)
        let callback = try signIn.capturedCallback()
        #expect(callback.contains("iss="))  // the server sends RFC 9207 iss, and it was accepted
    }

    @Test("A callback with another state is answered 400 and ignored; the real callback still completes the sign-in")
    func wrongState() async throws {
        let env = try OAuthServerEnvironment.require()
        let signIn = try await scriptedSignIn(env, action: "capture")
        let flow = signIn.flow
        let pending = try flow.prepare()
        // The listener serves the start URL and the callbacks while the browser runs.
        async let code = flow.receiveCode(pending)
        try await flow.opener(pending.startURL)
        let captured = try signIn.capturedCallback()
        let forged = captured.replacingOccurrences(of: "state=\(pending.state)", with: "state=forged")
        #expect(forged != captured)
        #expect(try await Self.status(forged) == 400)
        #expect(try await Self.status(captured) == 200)
        #expect(try await !code.isEmpty)
    }

    @Test("An iss naming another issuer is refused (mix-up)")
    func wrongIssuer() async throws {
        let env = try OAuthServerEnvironment.require()
        let signIn = try await scriptedSignIn(env, action: "capture")
        let flow = signIn.flow
        let pending = try flow.prepare()
        try await flow.opener(pending.url)
        let captured = try signIn.capturedCallback()
        let forged = captured.replacingOccurrences(of: "iss=", with: "iss=https%3A%2F%2Fevil.example&x=")
        async let delivered: Void = Self.get(forged)
        let error = await #expect(throws: AuthError.self) { try await flow.receiveCode(pending) }
        try await delivered
        #expect(error?.code == .responseMismatch)
    }

    @Test("A replayed authorization code is refused by the server")
    func replayedCode() async throws {
        let env = try OAuthServerEnvironment.require()
        let signIn = try await scriptedSignIn(env, action: "approve")
        let flow = signIn.flow
        let pending = try flow.prepare()
        async let opened: Void = flow.opener(pending.url)
        let code = try await flow.receiveCode(pending)
        try await opened
        _ = try await flow.exchange(code: code, pending: pending)
        let error = await #expect(throws: AuthError.self) { try await flow.exchange(code: code, pending: pending) }
        #expect(error?.code == .authorizationFailed)
        #expect(error?.oauthError == "invalid_grant")
        #expect(!(error?.message.contains(code) ?? true))
    }

    @Test("A denied consent surfaces as access-denied")
    func denied() async throws {
        let env = try OAuthServerEnvironment.require()
        let signIn = try await scriptedSignIn(env, action: "deny")
        let flow = signIn.flow
        let error = await #expect(throws: AuthError.self) { try await flow.signIn() }
        #expect(error?.code == .accessDenied)
    }

    @Test("ID tokens with another nonce or another audience are refused")
    func swappedIDToken() async throws {
        let env = try OAuthServerEnvironment.require()
        let native = try await configuration(env, client: "NATIVE_CLIENT_ID")
        let other = try await configuration(env, client: "OTHER_CLIENT_ID")
        let keys = try await SignInDiscovery.keys(try #require(native.jwksURI), transport: transport)
        // A real ID token for the native client, bound to the nonce of its own sign-in.
        let signIn = try await scriptedSignIn(env, configuration: native, scopes: ["openid"], action: "approve")
        let flow = signIn.flow
        let pending = try flow.prepare()
        async let opened: Void = flow.opener(pending.url)
        let signedIn = try await flow.exchange(code: try await flow.receiveCode(pending), pending: pending)
        try await opened
        let idToken = try #require(signedIn.idToken)
        let validator = IDTokenValidator(issuer: env.issuer, clientID: native.clientID)
        _ = try validator.validate(idToken, nonce: pending.nonce, keys: keys)
        let otherNonce = #expect(throws: AuthError.self) { try validator.validate(idToken, nonce: "another-sign-in", keys: keys) }
        #expect(otherNonce?.code == .invalidIDToken)
        // A real ID token issued to another client is not accepted for this one.
        let otherSignIn = try await scriptedSignIn(env, configuration: other, scopes: ["openid"], action: "approve")
        let otherFlow = otherSignIn.flow
        let otherPending = try otherFlow.prepare()
        async let otherOpened: Void = otherFlow.opener(otherPending.url)
        let otherSet = try await otherFlow.exchange(code: try await otherFlow.receiveCode(otherPending), pending: otherPending)
        try await otherOpened
        let otherIDToken = try #require(otherSet.idToken)
        let wrongAudience = #expect(throws: AuthError.self) {
            try validator.validate(otherIDToken, nonce: otherPending.nonce, keys: keys)
        }
        #expect(wrongAudience?.code == .invalidIDToken)
        // And one from another issuer name is refused too.
        let otherIssuer = #expect(throws: AuthError.self) {
            try IDTokenValidator(issuer: env.issuer + "/tenant", clientID: native.clientID).validate(idToken, nonce: pending.nonce, keys: keys)
        }
        #expect(otherIssuer?.code == .invalidIDToken)
    }

    @Test("Device grant: the user approves on the server's pages")
    func deviceApproved() async throws {
        let env = try OAuthServerEnvironment.require()
        let flow = try DeviceCodeSignIn(configuration: try await configuration(env, client: "DEVICE_CLIENT_ID"), scopes: ["read"], transport: transport)
        let authorization = try await flow.start()
        #expect(authorization.verificationURI.hasPrefix(env.issuer))
        async let approved = env.runBrowser(["--device", authorization.userCode])
        let tokenSet = try await withDeadline("device approval", seconds: 60) { try await flow.waitForApproval(authorization) }
        #expect(try await approved == 0)
        #expect(!tokenSet.accessToken.isEmpty)
        #expect(try LoginConfiguration(storedIn: tokenSet)?.clientID == env["DEVICE_CLIENT_ID"])
    }

    @Test("Device grant: a denial surfaces as access-denied")
    func deviceDenied() async throws {
        let env = try OAuthServerEnvironment.require()
        let flow = try DeviceCodeSignIn(configuration: try await configuration(env, client: "DEVICE_CLIENT_ID"), scopes: ["read"], transport: transport)
        let authorization = try await flow.start()
        async let denied = env.runBrowser(["--device", authorization.userCode, "--deny"])
        let error = await #expect(throws: AuthError.self) {
            try await withDeadline("device denial", seconds: 60) { try await flow.waitForApproval(authorization) }
        }
        #expect(try await denied == 0)
        #expect(error?.code == .accessDenied)
    }

    @Test("Revocation ends the refresh token at the server")
    func revocation() async throws {
        let env = try OAuthServerEnvironment.require()
        let configuration = try await configuration(env, client: "NATIVE_CLIENT_ID")
        let signIn = try await scriptedSignIn(env, configuration: configuration, action: "approve")
        let tokenSet = try await signIn.flow.signIn()
        try await TokenRevocation(endpoint: try #require(configuration.revocationEndpoint), clientID: configuration.clientID, transport: transport)
            .revoke(tokenSet)
        let grant = try OAuth2RefreshTokenGrant(tokenEndpoint: configuration.tokenEndpoint, clientID: configuration.clientID, transport: transport)
        let error = await #expect(throws: AuthError.self) { try await grant.refresh(tokenSet) }
        #expect(error?.code == .signInRequired)
    }

    /// A plain GET, as the browser would send to the loopback listener.
    static func get(_ url: String) async throws {
        _ = try await status(url)
    }

    /// The status of a plain GET.
    static func status(_ url: String) async throws -> Int {
        guard let url = URL(string: url) else { throw DeadlineExceeded(what: "bad URL") }
        return try await URLSessionTransport(timeout: .seconds(20)).send(HTTPTransportRequest(url: url)).status
    }
}

extension AuthorizationCodeSignIn {
    /// Hands `url` to the flow's opener (tests drive the steps one by one).
    func opener(_ url: URL) async throws {
        try await openerForTests.open(url)
    }
}
#endif
