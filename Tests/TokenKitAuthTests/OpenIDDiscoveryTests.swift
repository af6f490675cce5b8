#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
import TokenKitAuth
import TokenKitURLSession

@Suite("OpenID discovery against a real server")
struct OpenIDDiscoveryTests {
    static func document(issuer: String, extra: String = "") -> String {
        """
        {"issuer":"\(issuer)","jwks_uri":"\(issuer)/jwks","authorization_endpoint":"\(issuer)/authorize",
         "token_endpoint":"\(issuer)/token","device_authorization_endpoint":"\(issuer)/device",
         "revocation_endpoint":"\(issuer)/revoke","userinfo_endpoint":"\(issuer)/userinfo",
         "code_challenge_methods_supported":["S256"],
         "token_endpoint_auth_methods_supported":["client_secret_basic","private_key_jwt"],
         "dpop_signing_alg_values_supported":["ES256"],
         "id_token_signing_alg_values_supported":["RS256","ES256"],
         "authorization_response_iss_parameter_supported":true\(extra)}
        """
    }

    @Test("decodes every endpoint and capability a sign-in or service needs")
    func decodesEverything() async throws {
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL
            await server.state.set("/.well-known/openid-configuration", .json(Self.document(issuer: issuer)))
            let metadata = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport()).fetch()
            #expect(metadata.issuer == issuer)
            #expect(metadata.jwksURI?.absoluteString == issuer + "/jwks")
            #expect(metadata.authorizationEndpoint?.absoluteString == issuer + "/authorize")
            #expect(metadata.tokenEndpoint?.absoluteString == issuer + "/token")
            #expect(metadata.deviceAuthorizationEndpoint?.absoluteString == issuer + "/device")
            #expect(metadata.revocationEndpoint?.absoluteString == issuer + "/revoke")
            #expect(metadata.userinfoEndpoint?.absoluteString == issuer + "/userinfo")
            #expect(metadata.codeChallengeMethodsSupported == ["S256"])
            #expect(metadata.tokenEndpointAuthMethodsSupported == ["client_secret_basic", "private_key_jwt"])
            #expect(metadata.dpopSigningAlgValuesSupported == ["ES256"])
            #expect(metadata.idTokenSigningAlgValuesSupported == ["RS256", "ES256"])
            #expect(metadata.authorizationResponseIssParameterSupported)
        }
    }

    @Test("an issuer with a path gets /.well-known/openid-configuration appended once")
    func issuerWithPath() async throws {
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL + "/realms/demo"
            await server.state.set("/realms/demo/.well-known/openid-configuration", .json(Self.document(issuer: issuer)))
            let metadata = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport()).fetch()
            #expect(metadata.issuer == issuer)
            #expect(await server.state.count("/realms/demo/.well-known/openid-configuration") == 1)
        }
    }

    @Test("a document whose issuer differs in any byte (even a trailing slash) is refused")
    func issuerMustMatchExactly() async throws {
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL
            await server.state.set("/.well-known/openid-configuration", .json(Self.document(issuer: issuer + "/")))
            let error = await #expect(throws: AuthError.self) {
                _ = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport()).fetch()
            }
            #expect(error?.code == .responseMismatch)
            #expect(error?.message.contains("expected exactly") == true)
        }
    }

    @Test("a member of the wrong type is named, never ignored")
    func wrongTypes() throws {
        let issuer = "https://id.example"
        let cases = [
            (#"{"issuer":"https://id.example","jwks_uri":42}"#, "jwks_uri"),
            (#"{"issuer":"https://id.example","code_challenge_methods_supported":"S256"}"#, "code_challenge_methods_supported"),
            (#"{"issuer":"https://id.example","authorization_response_iss_parameter_supported":"yes"}"#, "authorization_response_iss_parameter_supported"),
            (#"{"issuer":"https://id.example","token_endpoint":"/token"}"#, "token_endpoint"),
            (#"{"jwks_uri":"https://id.example/jwks"}"#, "issuer"),
            (#"["not","an","object"]"#, "not a JSON object"),
            (#"{"issuer":"https://id.example","issuer":"https://evil.example"}"#, "not valid JSON"),
        ]
        for (json, named) in cases {
            let error = #expect(throws: AuthError.self) {
                _ = try OpenIDProviderMetadata(json: Array(json.utf8), expectedIssuer: issuer)
            }
            #expect(error?.message.contains(named) == true, "\(json)")
        }
        let minimal = try OpenIDProviderMetadata(json: Array(#"{"issuer":"https://id.example"}"#.utf8), expectedIssuer: issuer)
        #expect(minimal.jwksURI == nil && minimal.codeChallengeMethodsSupported.isEmpty && !minimal.authorizationResponseIssParameterSupported)
    }

    @Test("plain http is refused off loopback unless explicitly allowed; queries are refused")
    func insecureIssuers() throws {
        let transport = URLSessionTransport()
        #expect(throws: AuthError.self) { _ = try OpenIDDiscovery(issuer: "http://id.example", transport: transport) }
        #expect(throws: AuthError.self) { _ = try OpenIDDiscovery(issuer: "ftp://id.example", transport: transport) }
        #expect(throws: AuthError.self) { _ = try OpenIDDiscovery(issuer: "https://id.example?x=1", transport: transport) }
        #expect(throws: AuthError.self) { _ = try OpenIDDiscovery(issuer: "https://user:pw@id.example", transport: transport) }
        _ = try OpenIDDiscovery(issuer: "http://id.example", transport: transport, options: RemoteFetchOptions(allowsInsecureHTTP: true))
        _ = try OpenIDDiscovery(issuer: "http://127.0.0.1:1", transport: transport)
    }

    @Test("a redirect to another origin is refused; a same-origin one is followed")
    func redirects() async throws {
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL
            await server.state.set("/.well-known/openid-configuration", ScriptedResponse(status: 302, headers: [("Location", "/moved")]))
            await server.state.set("/moved", .json(Self.document(issuer: issuer)))
            let metadata = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport()).fetch()
            #expect(metadata.issuer == issuer)

            await server.state.set("/.well-known/openid-configuration",
                                   ScriptedResponse(status: 302, headers: [("Location", "http://localhost:\(server.port)/moved")]))
            let error = await #expect(throws: AuthError.self) {
                _ = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport()).fetch()
            }
            #expect(error?.code == .network)
            #expect(error?.message.contains("another origin") == true)
            #expect(await server.state.count("/moved") == 1)
        }
    }

    @Test("an oversized document, a slow server and a 500 each fail with their reason")
    func failures() async throws {
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL
            let path = "/.well-known/openid-configuration"
            await server.state.set(path, ScriptedResponse(body: Array(repeating: 0x20, count: 2048)))
            let big = await #expect(throws: AuthError.self) {
                _ = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport(),
                                              options: RemoteFetchOptions(maxBodyBytes: 1024)).fetch()
            }
            #expect(big?.message.contains("larger than 1024 bytes") == true)

            await server.state.set(path, ScriptedResponse(status: 200, body: Array(Self.document(issuer: issuer).utf8), delay: 3))
            let started = ContinuousClock.now
            let slow = await #expect(throws: AuthError.self) {
                _ = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport(),
                                              options: RemoteFetchOptions(timeout: .milliseconds(300))).fetch()
            }
            #expect(slow?.message.contains("(total deadline)") == true)
            #expect(ContinuousClock.now - started < .seconds(2))

            await server.state.set(path, ScriptedResponse(status: 500))
            let down = await #expect(throws: AuthError.self) {
                _ = try await OpenIDDiscovery(issuer: issuer, transport: URLSessionTransport()).fetch()
            }
            #expect(down?.code == .invalidResponse)
            #expect(down?.message.contains("HTTP 500") == true)
        }
    }
}
#endif
