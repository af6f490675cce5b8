import AsyncHTTPClient
import Foundation
import Testing
import TokenKit
import TokenKitAsyncHTTPClient
import TokenKitStore
import TokenKitTestSupport
import TokenKitURLSession
@testable import TokenKitAuth

/// Every HTTP fetch TokenKit makes, as the fetch gate sees it: which path it requests, which
/// body cap it states, and whether its documented redirect policy follows same-origin
/// redirects (documents) or none (credential-bearing POSTs). Code exchange and device polling
/// share the device-authorization path (`SignInTokenRequest`); client credentials and refresh
/// share the token-endpoint client.
enum GatedFetch: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case refresh, clientCredentials, deviceAuthorization, revocation, jwks, discovery

    var testDescription: String { rawValue }

    var path: String {
        switch self {
        case .refresh, .clientCredentials: "/token"
        case .deviceAuthorization: "/device"
        case .revocation: "/revoke"
        case .jwks: "/jwks"
        case .discovery: "/.well-known/openid-configuration"
        }
    }

    /// The body cap the fetch states (below the adapters' own 4 MiB default).
    var cap: Int { self == .jwks || self == .discovery ? 1024 * 1024 : 64 * 1024 }

    /// Documents follow same-origin redirects; requests carrying credentials follow none.
    var followsSameOrigin: Bool { self == .jwks || self == .discovery }

    /// A successful answer for this fetch from the server at `base`.
    func success(base: String) throws -> ScriptedResponse {
        switch self {
        case .refresh, .clientCredentials:
            return .json(#"{"access_token":"new-access","token_type":"Bearer","expires_in":60}"#)
        case .deviceAuthorization:
            return .json(#"{"device_code":"dc","user_code":"ABCD","verification_uri":"https://example.com/device","expires_in":600,"interval":5}"#)
        case .revocation:
            return ScriptedResponse(status: 200)
        case .jwks:
            return .json(try TestSigningKey.jwks([TestSigningKey(kid: "k1")]))
        case .discovery:
            return .json(#"{"issuer":"\#(base)","jwks_uri":"\#(base)/jwks"}"#)
        }
    }

    /// Runs this fetch against the server at `base` with total deadline `deadline`; the
    /// failure's message, or `nil` when it succeeded.
    func run(_ transport: any HTTPTransport, base: String, deadline: Duration = .seconds(20)) async throws -> String? {
        let url = try #require(URL(string: base + path))
        let token = try #require(URL(string: base + "/token"))
        do throws(AuthError) {
            switch self {
            case .refresh:
                _ = try await OAuth2RefreshTokenGrant(tokenEndpoint: url, clientID: "client", transport: transport, requestTimeout: deadline)
                    .refresh(TokenSet(accessToken: "old", refreshToken: "refresh-1"))
            case .clientCredentials:
                _ = try await OAuth2ClientCredentialsGrant(
                    tokenEndpoint: url, clientID: "client", clientAuthentication: .clientSecretBasic(secret: "s3cret"),
                    transport: transport, requestTimeout: deadline
                ).acquire(replacing: nil)
            case .deviceAuthorization:
                let configuration = try LoginConfiguration(tokenEndpoint: token, deviceAuthorizationEndpoint: url, clientID: "client")
                _ = try await DeviceCodeSignIn(configuration: configuration, scopes: [], transport: transport, requestTimeout: deadline).start()
            case .revocation:
                try await TokenRevocation(endpoint: url, clientID: "client", transport: transport, requestTimeout: deadline)
                    .revoke(TokenSet(accessToken: "access-1"))
            case .jwks:
                let keys = try RemoteJWKS(.url(url), transport: transport, options: RemoteJWKSOptions(fetch: RemoteFetchOptions(timeout: deadline)))
                do { _ = try await keys.keySet() } catch { return keys.status.lastError ?? error.reason }
            case .discovery:
                _ = try await OpenIDDiscovery(issuer: base, transport: transport, options: RemoteFetchOptions(timeout: deadline)).fetch()
            }
            return nil
        } catch {
            return error.message
        }
    }
}

/// A transport that records what each fetch asks for and answers 503.
private final class LimitRecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked Sendable: `requests` is only touched under `lock`.
    private let lock = NSLock()
    private var requests: [HTTPTransportRequest] = []
    var recorded: [HTTPTransportRequest] { lock.withLock { requests } }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        lock.withLock { requests.append(request) }
        return HTTPTransportResponse(status: 503)
    }
}

/// The fetch gate (issue 23): the same list of hostile answers against every fetch through
/// each adapter. Serialized: the endless bodies would otherwise compete for the two cores.
@Suite("Fetch gate: every fetch × each transport × hostile answers", .serialized)
struct FetchGateTests {
    @Test("every fetch hands the transport its own body cap, its deadline and its redirect policy", arguments: GatedFetch.allCases)
    func statesItsLimits(fetch: GatedFetch) async throws {
        let transport = LimitRecordingTransport()
        _ = try await fetch.run(transport, base: "http://127.0.0.1:9", deadline: .seconds(7))
        let first = try #require(transport.recorded.first)
        #expect(first.url.path == fetch.path)
        #expect(first.maxResponseBytes == fetch.cap)
        // The fetch's deadline, plus the gate's 100 ms grace for the transport's own backstop.
        #expect(first.timeout <= .milliseconds(7100) && first.timeout > .seconds(6))
        #expect(first.redirects == (fetch.followsSameOrigin ? .sameOrigin(max: 3) : HTTPRedirectPolicy.none))
    }

    @Test("an endless chunked body stops at the fetch's cap (AsyncHTTPClient also drops the connection)", arguments: AdapterKind.allCases, GatedFetch.allCases)
    func endlessChunked(kind: AdapterKind, fetch: GatedFetch) async throws {
        try await HostileBodyServer.with(.endlessChunked) { server in
            try await kind.with(maxResponseBytes: HTTPTransportRequest.defaultMaxResponseBytes) { transport in
                let failure = try await fetch.run(transport, base: "http://127.0.0.1:\(server.port)")
                #expect(failure?.contains("larger than \(fetch.cap) bytes") == true, "\(failure ?? "succeeded")")
            }
            // AsyncHTTPClient closes the connection when the body loop ends. URLSession on Linux
            // does not promise it: swift-corelibs-foundation processes the cancel only when its
            // work queue, kept busy by a server streaming at full speed, gets to it (over 30 s,
            // measured alone on two cores); SECURITY.md says so. There the guarantees are the cap
            // error above (the caller is answered at once) and the bounded RSS (PeakRSS tests).
            if kind == .asyncHTTPClient {
                try await waitUntil("the client drops the connection", seconds: 30) { server.connectionsClosedByClient >= 1 }
            }
        }
    }

    @Test("a Content-Length over the cap is refused", arguments: AdapterKind.allCases, GatedFetch.allCases)
    func contentLengthTooBig(kind: AdapterKind, fetch: GatedFetch) async throws {
        try await HostileBodyServer.with(.contentLength(announced: 64 * 1024 * 1024)) { server in
            try await kind.with(maxResponseBytes: HTTPTransportRequest.defaultMaxResponseBytes) { transport in
                let failure = try await fetch.run(transport, base: "http://127.0.0.1:\(server.port)")
                #expect(failure?.contains("larger than \(fetch.cap) bytes") == true, "\(failure ?? "succeeded")")
            }
        }
    }

    @Test("a body trickled past the deadline is cut off at the deadline", arguments: AdapterKind.allCases, GatedFetch.allCases)
    func trickle(kind: AdapterKind, fetch: GatedFetch) async throws {
        try await HostileBodyServer.with(.trickle(interval: .milliseconds(200))) { server in
            try await kind.with { transport in
                let failure = try await fetch.run(transport, base: "http://127.0.0.1:\(server.port)", deadline: .seconds(1))
                let message = failure ?? "succeeded"
                #expect(message.contains("did not complete within 1 s (total deadline)"), "\(message)")
            }
            #expect(server.bodyBytesSent < 1000, "the whole trickled body was read")
        }
    }

    @Test("a same-origin redirect is followed by the library for documents, and by nothing for credentials", arguments: AdapterKind.allCases, GatedFetch.allCases)
    func sameOriginRedirect(kind: AdapterKind, fetch: GatedFetch) async throws {
        try await ScriptedHTTPServer.with { server in
            await server.state.set(fetch.path, ScriptedResponse(status: 307, headers: [("Location", "/moved")]))
            await server.state.set("/moved", try fetch.success(base: server.baseURL))
            try await kind.with { transport in
                let failure = try await fetch.run(transport, base: server.baseURL)
                if fetch.followsSameOrigin {
                    #expect(failure == nil, "\(failure ?? "")")
                    #expect(await server.state.count("/moved") == 1)
                } else {
                    #expect(failure != nil)
                    #expect(await server.state.count("/moved") == 0)
                }
                #expect(await server.state.count(fetch.path) == 1)
            }
        }
    }

    @Test("a redirect to another origin is refused and that origin receives no request", arguments: AdapterKind.allCases, GatedFetch.allCases)
    func crossOriginRedirect(kind: AdapterKind, fetch: GatedFetch) async throws {
        try await ScriptedHTTPServer.with { other in
            await other.state.set("/moved", try fetch.success(base: other.baseURL))
            try await ScriptedHTTPServer.with { server in
                await server.state.set(fetch.path, ScriptedResponse(status: 307, headers: [("Location", other.baseURL + "/moved")]))
                try await kind.with { transport in
                    let failure = try await fetch.run(transport, base: server.baseURL)
                    #expect(failure != nil)
                    if fetch.followsSameOrigin { #expect(failure?.contains("another origin") == true, "\(failure ?? "")") }
                }
                #expect(await server.state.count(fetch.path) == 1)
            }
            #expect(await other.state.count("/moved") == 0)
            #expect(await other.state.count(fetch.path) == 0)
        }
    }

    @Test("an AsyncHTTPClient configuration that follows redirects is overridden: the other origin gets nothing")
    func followingConfigurationIsOverridden() async throws {
        try await ScriptedHTTPServer.with { other in
            await other.state.set("/keys", .json(try TestSigningKey.jwks([TestSigningKey(kid: "k1")])))
            try await ScriptedHTTPServer.with { server in
                await server.state.set("/jwks", ScriptedResponse(status: 302, headers: [("Location", other.baseURL + "/keys")]))
                let transport = AsyncHTTPClientTransport(
                    configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: false)))
                let status: Int
                do { status = try await transport.send(HTTPTransportRequest(url: server.url("/jwks"))).status } catch { status = -1 }
                try await transport.shutdown()
                #expect(status == 302, "the client followed the redirect itself")
            }
            #expect(await other.state.count("/keys") == 0)
        }
    }
}
