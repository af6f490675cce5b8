import Foundation
import TokenKitStore
internal import TokenKitPrimitives

/// What the user needs to approve a device sign-in (RFC 8628 §3.2). `description` shows the
/// user code and URIs (meant for the user) but never the device code.
public struct DeviceAuthorization: Sendable, CustomStringConvertible {
    /// The code the user types at ``verificationURI``.
    public let userCode: String
    /// Where the user goes: an `https` URL (or `http` on a loopback address).
    public let verificationURI: String
    /// The same page with the code filled in, when the server gives one (the same rule).
    public let verificationURIComplete: String?
    /// When the device code stops working.
    public let expiresAt: Date
    /// The polling interval the server asked for (whole seconds, 1 to 300; 5 when it gave none).
    public let interval: Duration
    let deviceCode: String

    /// `DeviceAuthorization(code: …, at: …)`.
    public var description: String { "DeviceAuthorization(code: \(userCode), at: \(verificationURI))" }
}

/// The device authorization grant (RFC 8628) for shells and devices without a browser.
///
/// ``start()`` asks for a device code and returns the user code and verification URI for the
/// caller to show (both URIs must be `https`, or `http` on a loopback address: anything else
/// is ``AuthError/Code/invalidResponse`` and nothing is shown); ``waitForApproval(_:)`` polls
/// the token endpoint at the server's `interval`, honoured up to 5 minutes
/// (`authorization_pending`: keep polling; `slow_down`: interval + 5 s, for good, also up to
/// 5 minutes) until a token set comes back, admits it through the token-response gate
/// (``TokenResponseAdmission``: an ID token is validated, without a nonce) and records the
/// ``LoginConfiguration``. Every answer is read up to 64 KiB.
///
/// Errors: ``AuthError/Code/accessDenied`` (`access_denied`), ``AuthError/Code/signInExpired``
/// (`expired_token`, or the code's lifetime passed), ``AuthError/Code/cancelled`` (task
/// cancelled while waiting), ``AuthError/Code/authorizationFailed`` (other OAuth errors),
/// ``AuthError/Code/network``/``AuthError/Code/invalidResponse`` (server failures).
public struct DeviceCodeSignIn: Sendable {
    /// Issuer, endpoints and client.
    public let configuration: LoginConfiguration
    /// The scopes requested.
    public let scopes: [String]
    private let clientAuthentication: ClientAuthentication
    /// The total deadline of each request to the authorization server (device authorization
    /// and each poll; bodies are capped at 64 KiB).
    public let requestTimeout: Duration
    private let transport: any HTTPTransport
    private let clock: any TokenClock
    private let sleep: @Sendable (Duration) async throws -> Void

    /// The longest polling interval honoured (RFC 8628 §3.2 leaves it to the server).
    public static let maximumInterval: Duration = .seconds(300)

    /// Creates the flow; throws ``AuthError/Code/invalidConfiguration`` when no device
    /// authorization endpoint is known, or `openid` is requested without an issuer and JWKS.
    /// `sleep` waits between polls (injectable for tests).
    public init(
        configuration: LoginConfiguration, scopes: [String], clientAuthentication: ClientAuthentication = .none,
        transport: any HTTPTransport, clock: any TokenClock = SystemClock(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        requestTimeout: Duration = .seconds(30)
    ) throws(AuthError) {
        guard configuration.deviceAuthorizationEndpoint != nil else {
            throw .invalidConfiguration("no device authorization endpoint is known (give one, or an issuer that publishes it)")
        }
        if scopes.containsByteIdentical("openid"), configuration.idTokenIssuer == nil {
            throw .invalidConfiguration("scope openid needs the issuer and its JWKS to validate the ID token (use --issuer)")
        }
        self.configuration = configuration
        self.scopes = scopes
        self.clientAuthentication = clientAuthentication
        self.transport = transport
        self.clock = clock
        self.sleep = sleep
        self.requestTimeout = requestTimeout
    }

    /// Asks the device authorization endpoint for a device code and a user code.
    public func start() async throws(AuthError) -> DeviceAuthorization {
        guard let endpoint = configuration.deviceAuthorizationEndpoint else { throw .invalidConfiguration("no device authorization endpoint") }
        var form: [(String, String)] = []
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let request = try clientAuthentication.formPost(
            to: endpoint, clientID: configuration.clientID, form: form, audience: configuration.tokenEndpoint, now: clock.now)
        let response = try await SignInTokenRequest.send(request, "the device authorization request", transport: transport, timeout: requestTimeout)
        let what = "the device authorization response"
        let body = try SignInJSON.object(response, what)
        guard let deviceCode = try SignInJSON.text("device_code", in: body, what),
              let userCode = try SignInJSON.text("user_code", in: body, what)
        else { throw .invalidResponse("\(what) is incomplete") }
        var uri = try SignInJSON.verificationURI("verification_uri", in: body, what)
        if uri == nil { uri = try SignInJSON.verificationURI("verification_url", in: body, what) }
        guard let uri else { throw .invalidResponse("\(what) has no \"verification_uri\"") }
        guard let expiresIn = try SignInJSON.seconds("expires_in", in: body, what), expiresIn > 0 else {
            throw .invalidResponse("\(what) has no usable \"expires_in\"")
        }
        let interval = try SignInJSON.seconds("interval", in: body, what) ?? 5
        return DeviceAuthorization(
            userCode: userCode, verificationURI: uri,
            verificationURIComplete: try SignInJSON.verificationURI("verification_uri_complete", in: body, what),
            expiresAt: clock.now + .seconds(expiresIn), interval: max(.seconds(1), min(.seconds(interval), Self.maximumInterval)),
            deviceCode: deviceCode)
    }

    /// Polls until the user approves (returns the validated token set) or the grant ends,
    /// in a `tokenkit.signin` span (`tokenkit.flow` `device_code`, `tokenkit.outcome`).
    public func waitForApproval(_ authorization: DeviceAuthorization) async throws(AuthError) -> TokenSet {
        try await AuthSpan.run("tokenkit.signin", attributes: [("tokenkit.flow", "device_code")]) { () async throws(AuthError) in
            try await poll(authorization)
        }
    }

    private func poll(_ authorization: DeviceAuthorization) async throws(AuthError) -> TokenSet {
        var interval = authorization.interval
        let client = try TokenEndpointClient(
            tokenEndpoint: configuration.tokenEndpoint, clientID: configuration.clientID, clientAuthentication: clientAuthentication,
            transport: transport, clock: clock, logger: nil, maxResponseBytes: SignInTokenRequest.maxResponseBytes)
        while true {
            do { try await sleep(interval) } catch { throw .cancelled }
            if Task.isCancelled { throw .cancelled }
            guard clock.now < authorization.expiresAt else {
                throw AuthError(code: .signInExpired, message: "the device code expired before the sign-in was approved")
            }
            let response = try await client.post(
                [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", authorization.deviceCode)],
                dpopKey: nil)
            if response.status != 200, response.body.count <= SignInTokenRequest.maxResponseBytes {
                switch TokenEndpointResponse.error(from: response).oauthError.map({ ExactKey($0) }) {  // OAuth error codes, byte for byte
                case "authorization_pending"?:
                    continue
                case "slow_down"?:
                    interval = min(interval + .seconds(5), Self.maximumInterval)
                    continue
                case "expired_token"?:
                    throw AuthError(code: .signInExpired, message: "the device code expired before the sign-in was approved", oauthError: "expired_token")
                default:
                    break  // the gate words every other refusal
                }
            }
            let expectation = TokenResponseAdmission.Expectation(
                grant: .deviceCode, dpop: false,
                idToken: IDTokenExpectation(
                    issuer: configuration.idTokenIssuer, clientID: configuration.clientID, nonce: nil, subject: nil,
                    required: scopes.containsByteIdentical("openid")),
                maxBytes: SignInTokenRequest.maxResponseBytes)
            let checked = try await TokenResponseAdmission.admit(
                response, expectation, previous: TokenSet(accessToken: "", tokenType: nil), now: clock.now, transport: transport)
            return configuration.stored(in: checked)
        }
    }
}
