#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
@testable import TokenKitAuth
import TokenKitTestSupport

/// The one token-response gate (issue 24 item 1), rule by rule, for every grant: each grant is
/// driven through its own public entry point (the code exchange, device polling, the refresh
/// grant, the client credentials grant) against a scripted token endpoint and JWKS, so a
/// grant that read its answer any other way would fail here.
@Suite("Token-response admission: every grant × every rule")
struct TokenResponseAdmissionTests {
    static let issuer = "https://id.example"
    static let clientID = "app"
    static let subject = "user-1"

    enum Grant: String, CaseIterable, Sendable, CustomStringConvertible {
        case authorizationCode, deviceCode, refreshToken, clientCredentials
        var description: String { rawValue }
        /// Whether the grant can ask for DPoP-bound tokens (the sign-in flows cannot).
        var canAskForDPoP: Bool { self == .refreshToken || self == .clientCredentials }
    }

    /// What one answer must lead to.
    enum Outcome: Sendable {
        /// Admitted; the check must hold for the returned set (given the test clock's now).
        case admitted(@Sendable (TokenSet, Date) -> Bool)
        /// Refused with this code, and a message containing the fragment.
        case refused(AuthError.Code, String)
        /// The rule does not apply to this grant (said why in the rule).
        case notApplicable
    }

    /// What the ID token of an answer claims; each rule bends one thing.
    struct IDToken: Sendable {
        var iss = TokenResponseAdmissionTests.issuer
        var aud: [String] = [TokenResponseAdmissionTests.clientID]
        var sub = TokenResponseAdmissionTests.subject
        /// `true`: the nonce the flow sent (when it sent one); `false`: another one.
        var sentNonce = true
        var expiresIn: Int64 = 3600
        var issuedAgo: Int64 = 0
        var unsigned = false
        var foreignKey = false
        var email: String? = "alice@example.com"
    }

    /// One rule of the gate, as an answer that tests it and the outcome per grant.
    struct Rule: Sendable, CustomTestStringConvertible {
        let name: String
        var status = 200
        /// The answer's members besides the ID token (as JSON text after `{`).
        var members = #""access_token":"AT-1","token_type":"Bearer","expires_in":3600,"refresh_token":"RT-1""#
        var idToken: IDToken? = IDToken()
        /// The grant asks for DPoP-bound tokens.
        var dpop = false
        /// A raw body instead of members + ID token.
        var rawBody: String?
        let outcome: @Sendable (Grant) -> Outcome

        var testDescription: String { name }
    }

    static let admitted = Outcome.admitted { set, _ in set.accessToken == "AT-1" }

    static let rules: [Rule] = [
        Rule(name: "a valid answer with a valid ID token is admitted; its subject and e-mail are recorded", outcome: { _ in
            .admitted { set, _ in
                set.accessToken == "AT-1" && set.metadata["login.subject"] == subject && set.metadata["login.email"] == "alice@example.com"
            }
        }),
        Rule(name: "access_token outside the Bearer character set", members: #""access_token":"AT\r\nX: 1","token_type":"Bearer""#,
             outcome: { _ in .refused(.invalidResponse, "\"access_token\" has a character not allowed") }),
        Rule(name: "refresh_token outside VSCHAR (ignored by client credentials)",
             members: #""access_token":"AT-1","token_type":"Bearer","refresh_token":"RT\u001b[2J""#,
             outcome: { grant in
                 grant == .clientCredentials
                     ? .admitted { set, _ in set.refreshToken == nil }
                     : .refused(.invalidResponse, "\"refresh_token\" has a character not allowed")
             }),
        Rule(name: "id_token that is not a compact JWT", idToken: nil,
             rawBody: #"{"access_token":"AT-1","token_type":"Bearer","id_token":"a.b\r\nX: 1.c"}"#,
             outcome: { _ in .refused(.invalidResponse, "\"id_token\"") }),
        Rule(name: "token_type neither Bearer nor DPoP", members: #""access_token":"AT-1","token_type":"mac""#,
             outcome: { _ in .refused(.invalidResponse, "token_type \"mac\" is not Bearer") }),
        Rule(name: "token_type DPoP although no proof was sent", members: #""access_token":"AT-1","token_type":"DPoP""#,
             outcome: { _ in .refused(.invalidResponse, "token_type \"DPoP\" is not Bearer") }),
        Rule(name: "a Bearer answer to a DPoP request (sign-in flows send no proof)", dpop: true, outcome: { grant in
            grant.canAskForDPoP ? .refused(.invalidResponse, "ignored the DPoP proof") : .notApplicable
        }),
        Rule(name: "a DPoP answer to a DPoP request (sign-in flows send no proof)",
             members: #""access_token":"AT-1","token_type":"dpop","expires_in":60"#, dpop: true, outcome: { grant in
                 grant.canAskForDPoP ? .admitted { set, _ in set.tokenType == "DPoP" && set.dpopKey != nil } : .notApplicable
             }),
        Rule(name: "no expires_in: the access token lives 5 minutes", members: #""access_token":"AT-1","token_type":"Bearer""#,
             outcome: { _ in .admitted { set, now in set.expiresAt == now.addingTimeInterval(300) } }),
        Rule(name: "a negative expires_in", members: #""access_token":"AT-1","token_type":"Bearer","expires_in":-5"#,
             outcome: { _ in .refused(.invalidResponse, "expires_in") }),
        Rule(name: "no ID token (required where openid was requested at sign-in)", idToken: nil, outcome: { grant in
            grant == .authorizationCode || grant == .deviceCode
                ? .refused(.invalidIDToken, "no ID token came back") : admitted
        }),
        Rule(name: "an unsigned (alg none) ID token", idToken: IDToken(unsigned: true),
             outcome: { _ in .refused(.invalidIDToken, "the ID token is not valid") }),
        Rule(name: "an ID token signed by a key outside the issuer's JWKS", idToken: IDToken(foreignKey: true),
             outcome: { _ in .refused(.invalidIDToken, "the ID token is not valid") }),
        Rule(name: "an ID token from another issuer", idToken: IDToken(iss: "https://evil.example"),
             outcome: { _ in .refused(.invalidIDToken, "the ID token is not valid") }),
        Rule(name: "an ID token for another client", idToken: IDToken(aud: ["other-app"]),
             outcome: { _ in .refused(.invalidIDToken, "the ID token is not valid") }),
        Rule(name: "an ID token with several audiences and no azp", idToken: IDToken(aud: [clientID, "other-app"]),
             outcome: { _ in .refused(.invalidIDToken, "azp") }),
        Rule(name: "an expired ID token", idToken: IDToken(expiresIn: -3600, issuedAgo: 7200),
             outcome: { _ in .refused(.invalidIDToken, "the ID token is not valid") }),
        Rule(name: "an ID token issued in the future", idToken: IDToken(issuedAgo: -3600),
             outcome: { _ in .refused(.invalidIDToken, "the ID token is not valid") }),
        Rule(name: "an ID token with another nonce (checked only where one was sent)", idToken: IDToken(sentNonce: false), outcome: { grant in
            grant == .authorizationCode ? .refused(.invalidIDToken, "nonce") : admitted
        }),
        Rule(name: "an ID token naming another subject (checked against the stored login on refresh)", idToken: IDToken(sub: "mallory"),
             outcome: { grant in
                 grant == .refreshToken
                     ? .refused(.invalidIDToken, "another subject than the stored login")
                     : .admitted { set, _ in set.metadata["login.subject"] == "mallory" }
             }),
        Rule(name: "an OAuth error answer", status: 400, idToken: nil, rawBody: #"{"error":"invalid_grant"}"#, outcome: { grant in
            switch grant {
            case .refreshToken: .refused(.signInRequired, "invalid_grant")
            case .clientCredentials: .refused(.refreshRejected, "invalid_grant")
            case .authorizationCode: .refused(.authorizationFailed, "rejected the authorization code: invalid_grant")
            case .deviceCode: .refused(.authorizationFailed, "rejected the device code: invalid_grant")
            }
        }),
        Rule(name: "two access_token members", idToken: nil,
             rawBody: #"{"access_token":"AT-1","access_token":"AT-2","token_type":"Bearer"}"#,
             outcome: { _ in .refused(.invalidResponse, "duplicate member name") }),
        Rule(name: "a body over 64 KiB", idToken: nil,
             rawBody: #"{"access_token":"AT-1","token_type":"Bearer","pad":""# + String(repeating: "x", count: 70_000) + #""}"#,
             // The fetch gate (HTTPTransport+Fetch) stops every token endpoint answer at the cap
             // before admission sees it: a network error naming the cap.
             outcome: { _ in .refused(.network, "larger than 65536 bytes") }),
    ]

    // MARK: - Running a grant

    /// The issuer's key, the JWKS it publishes, a key it does not publish, and the clock.
    struct Server: Sendable {
        let key: TestSigningKey
        let stranger: TestSigningKey
        let jwks: String
        let clock = ManualClock()

        init() throws {
            key = try TestSigningKey(kid: "issuer-key")
            stranger = try TestSigningKey(kid: "issuer-key")
            jwks = try TestSigningKey.jwks([key])
        }

        /// The answer's body for `rule`, with the ID token bound to `nonce` (the one the flow sent).
        func body(_ rule: Rule, nonce: String?) throws -> String {
            if let raw = rule.rawBody { return raw }
            guard let claims = rule.idToken else { return "{" + rule.members + "}" }
            return "{" + rule.members + #","id_token":""# + (try idToken(claims, nonce: nonce)) + #""}"#
        }

        func idToken(_ claims: IDToken, nonce: String?) throws -> String {
            let now = Int64(clock.now.timeIntervalSince1970)
            var object = JSONObject([
                ("iss", .string(claims.iss)), ("sub", .string(claims.sub)),
                ("aud", claims.aud.count == 1 ? .string(claims.aud[0]) : .array(claims.aud.map(JSONValue.string))),
                ("exp", .number(JSONNumber(now + claims.expiresIn))), ("iat", .number(JSONNumber(now - claims.issuedAgo))),
            ])
            if let email = claims.email { object["email"] = .string(email) }
            if !claims.sentNonce || nonce != nil { object["nonce"] = .string(claims.sentNonce ? nonce ?? "" : "another-sign-in") }
            if claims.unsigned {
                let header = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
                return header + "." + Base64URL.encode(Array(JSONValue.object(object).jsonText.utf8)) + "."
            }
            return try (claims.foreignKey ? stranger : key).signer.sign(JWTClaims(object))
        }
    }

    static var tokenEndpoint: URL { URL(string: issuer + "/token")! }

    static func configuration(withIssuer: Bool = true) throws -> LoginConfiguration {
        try LoginConfiguration(
            issuer: withIssuer ? issuer : nil, authorizationEndpoint: URL(string: issuer + "/authorize"), tokenEndpoint: tokenEndpoint,
            deviceAuthorizationEndpoint: URL(string: issuer + "/device"), jwksURI: withIssuer ? URL(string: issuer + "/jwks") : nil,
            clientID: clientID)
    }

    static let device = ScriptedTransport.Step.answer(
        200, #"{"device_code":"dc-1","user_code":"WDJB-MJHT","verification_uri":"https://id.example/activate","expires_in":600,"interval":5}"#)

    /// Runs `grant` once against an endpoint answering `rule`'s body, then the JWKS.
    func run(_ grant: Grant, _ rule: Rule, server: Server, withIssuer: Bool = true) async throws -> Result<TokenSet, AuthError> {
        let transport = ScriptedTransport([])
        let jwks = ScriptedTransport.Step.answer(200, server.jwks)
        let issuer = withIssuer ? try IDTokenIssuer(issuer: Self.issuer, jwksURI: URL(string: Self.issuer + "/jwks")!) : nil
        do {
            switch grant {
            case .authorizationCode:
                let flow = try AuthorizationCodeSignIn(
                    configuration: try Self.configuration(withIssuer: withIssuer), scopes: withIssuer ? ["openid"] : [],
                    transport: transport, opener: ClosureBrowserOpener { _ in }, clock: server.clock)
                let pending = try flow.prepare()
                defer { pending.listener.closeSocket() }
                transport.enqueue([.answer(rule.status, try server.body(rule, nonce: pending.nonce)), jwks])
                return .success(try await flow.exchange(code: "code-1", pending: pending))
            case .deviceCode:
                let sleeper = RecordingSleeper(clock: server.clock)
                transport.enqueue([Self.device, .answer(rule.status, try server.body(rule, nonce: nil)), jwks])
                let flow = try DeviceCodeSignIn(
                    configuration: try Self.configuration(withIssuer: withIssuer), scopes: withIssuer ? ["openid"] : [],
                    transport: transport, clock: server.clock, sleep: { sleeper.sleep($0) })
                return .success(try await flow.waitForApproval(try await flow.start()))
            case .refreshToken:
                var previous = TokenSet(
                    accessToken: "AT-0", refreshToken: "RT-0", tokenType: rule.dpop ? "DPoP" : "Bearer",
                    metadata: ["login.subject": Self.subject])
                if rule.dpop { previous.dpopKey = try DPoPKey.generate().privateJWK() }
                transport.enqueue([.answer(rule.status, try server.body(rule, nonce: nil)), jwks])
                let refresh = try OAuth2RefreshTokenGrant(
                    tokenEndpoint: Self.tokenEndpoint, clientID: Self.clientID, transport: transport, clock: server.clock,
                    idTokenIssuer: issuer)
                return .success(try await refresh.refresh(previous))
            case .clientCredentials:
                transport.enqueue([.answer(rule.status, try server.body(rule, nonce: nil)), jwks])
                let acquire = try OAuth2ClientCredentialsGrant(
                    tokenEndpoint: Self.tokenEndpoint, clientID: Self.clientID, clientAuthentication: .clientSecretBasic(secret: "s"),
                    dpop: rule.dpop, transport: transport, clock: server.clock, idTokenIssuer: issuer)
                return .success(try await acquire.acquire(replacing: nil))
            }
        } catch let error as AuthError {
            return .failure(error)
        }
    }

    @Test("each grant's answer goes through every rule of the gate", arguments: Grant.allCases, TokenResponseAdmissionTests.rules)
    func rule(grant: Grant, rule: Rule) async throws {
        let server = try Server()
        let expected = rule.outcome(grant)
        if case .notApplicable = expected { return }
        if rule.dpop, !grant.canAskForDPoP { return }
        let result = try await run(grant, rule, server: server)
        switch (expected, result) {
        case (.admitted(let check), .success(let set)):
            #expect(check(set, server.clock.now), "\(grant): \(set)")
        case (.refused(let code, let fragment), .failure(let error)):
            #expect(error.code == code, "\(grant): \(error.code) \(error.message)")
            #expect(error.message.contains(fragment), "\(grant): \(error.message)")
            // No token of the answer ever reaches an error.
            #expect(!error.message.contains("AT-1") && !error.message.contains("RT-1") && !error.message.contains("eyJ"))
        case (.admitted, .failure(let error)):
            Issue.record("\(grant): refused, expected admitted: \(error.code) \(error.message)")
        case (.refused, .success(let set)):
            Issue.record("\(grant): admitted \(set), expected refused")
        case (.notApplicable, _):
            break
        }
    }

    @Test("an ID token no issuer is known for refuses the answer, whichever grant got it", arguments: Grant.allCases)
    func idTokenWithoutIssuer(grant: Grant) async throws {
        let result = try await run(grant, Rule(name: "valid", outcome: { _ in .notApplicable }), server: try Server(), withIssuer: false)
        guard case .failure(let error) = result else {
            Issue.record("\(grant): an ID token that cannot be validated was admitted")
            return
        }
        #expect(error.code == .invalidIDToken)
        #expect(error.message.contains("no issuer and JWKS are known"), "\(error.message)")
    }

    @Test("a refresh with no issuer given validates the ID token with the issuer stored with the login")
    func refreshUsesTheStoredIssuer() async throws {
        let server = try Server()
        let stored = try Self.configuration().stored(in: TokenSet(
            accessToken: "AT-0", refreshToken: "RT-0", metadata: ["login.subject": Self.subject]))
        for (claims, admitted) in [(IDToken(), true), (IDToken(iss: "https://evil.example"), false), (IDToken(sub: "mallory"), false)] {
            let transport = ScriptedTransport([
                .answer(200, try server.body(Rule(name: "", idToken: claims, outcome: { _ in .notApplicable }), nonce: nil)),
                .answer(200, server.jwks),
            ])
            let grant = try OAuth2RefreshTokenGrant(tokenEndpoint: Self.tokenEndpoint, clientID: Self.clientID, transport: transport, clock: server.clock)
            let result: Result<TokenSet, AuthError>
            do { result = .success(try await grant.refresh(stored)) } catch { result = .failure(error) }
            switch result {
            case .success: #expect(admitted, "\(claims)")
            case .failure(let error): #expect(!admitted && error.code == .invalidIDToken, "\(claims): \(error.message)")
            }
        }
    }

    @Test("a refused answer is never stored: the provider keeps the stored set", arguments: [Grant.refreshToken, .clientCredentials])
    func refusedNotStored(grant: Grant) async throws {
        let server = try Server()
        let store = CountingTokenStore()
        let key = try CredentialKey(service: "svc", account: grant.rawValue)
        let transport = ScriptedTransport([
            .answer(200, try server.body(Rule(name: "", idToken: IDToken(sub: "mallory", unsigned: true), outcome: { _ in .notApplicable }), nonce: nil)),
            .answer(200, server.jwks),
        ])
        let issuer = try IDTokenIssuer(issuer: Self.issuer, jwksURI: URL(string: Self.issuer + "/jwks")!)
        let refresher: any TokenRefresher
        var seeded = TokenSet(
            accessToken: "AT-0", refreshToken: "RT-0", expiresAt: server.clock.now.addingTimeInterval(-5), metadata: ["login.subject": Self.subject])
        if grant == .refreshToken {
            refresher = try OAuth2RefreshTokenGrant(
                tokenEndpoint: Self.tokenEndpoint, clientID: Self.clientID, transport: transport, clock: server.clock, idTokenIssuer: issuer)
        } else {
            let cc = try OAuth2ClientCredentialsGrant(
                tokenEndpoint: Self.tokenEndpoint, clientID: Self.clientID, clientAuthentication: .clientSecretBasic(secret: "s"),
                transport: transport, clock: server.clock, idTokenIssuer: issuer)
            seeded.refreshToken = nil
            seeded.metadata[OAuth2ClientCredentialsGrant.bindingMetadataKey] = cc.binding(dpopThumbprint: nil)
            refresher = cc
        }
        try await store.save(Credential(tokenSet: seeded), for: key)
        let before = try #require(try await store.load(key))
        let provider = AuthProvider(store: store, key: key, refresher: refresher, clock: server.clock)
        let error = await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
        #expect(error?.code == .invalidIDToken)
        let after = try #require(try await store.load(key))
        #expect(after.hasSameSecret(as: before))
    }
}
#endif
