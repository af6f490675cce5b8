import Foundation
import TokenKitStore

/// Token revocation (RFC 7009) for sign-out.
///
/// ``revoke(_:)`` revokes the refresh token first (`token_type_hint=refresh_token`: revoking it
/// also ends its access tokens at most servers), then the access token — also when revoking
/// the refresh token failed, so a server that refused one still gets the other. HTTP 200 is
/// success (RFC 7009 §2.2: also for tokens the server no longer knows). Anything else is an
/// ``AuthError`` naming the status or OAuth error (never a token); each answer is read up to
/// 64 KiB; the caller decides what to do with the local credential (``SignOut`` deletes it
/// anyway).
public struct TokenRevocation: Sendable {
    /// The revocation endpoint.
    public let endpoint: URL
    /// The OAuth client id.
    public let clientID: String
    private let clientAuthentication: ClientAuthentication
    private let audience: URL?
    /// The total deadline of each revocation request (its body is capped at 64 KiB).
    public let requestTimeout: Duration
    private let transport: any HTTPTransport

    /// Creates the revoker; throws ``AuthError/Code/invalidConfiguration`` for an unsafe endpoint.
    /// `tokenEndpoint` is the `aud` of `private_key_jwt` assertions (RFC 7523 §3: the
    /// authorization server's token endpoint); without it the revocation endpoint is used.
    public init(
        endpoint: URL, clientID: String, clientAuthentication: ClientAuthentication = .none, tokenEndpoint: URL? = nil,
        transport: any HTTPTransport, requestTimeout: Duration = .seconds(30)
    ) throws(AuthError) {
        do { try TokenEndpoint.validate(endpoint) } catch {
            throw .invalidConfiguration(error.message.replacingOccurrences(of: "token endpoint", with: "revocation endpoint"))
        }
        self.endpoint = endpoint
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.audience = tokenEndpoint
        self.transport = transport
        self.requestTimeout = requestTimeout
    }

    /// Revokes `tokenSet`'s refresh token, then its access token (attempted whatever the first
    /// revocation did); throws the first failure once both were attempted.
    public func revoke(_ tokenSet: TokenSet) async throws(AuthError) {
        var failure: AuthError?
        if let refresh = tokenSet.refreshToken, !refresh.isEmpty {
            do { try await revoke(refresh, hint: "refresh_token") } catch { failure = error }
        }
        if !tokenSet.accessToken.isEmpty {
            do { try await revoke(tokenSet.accessToken, hint: "access_token") } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    private func revoke(_ token: String, hint: String) async throws(AuthError) {
        let request = try clientAuthentication.formPost(to: endpoint, clientID: clientID, form: [("token", token), ("token_type_hint", hint)], audience: audience)
        let response = try await SignInTokenRequest.send(request, "revoking the \(hint.replacingOccurrences(of: "_", with: " "))", transport: transport, timeout: requestTimeout)
        guard response.status == 200 else {
            let error = TokenEndpointResponse.error(from: response)
            let reason = error.oauthError.map { "\($0) (HTTP \(response.status))" } ?? "HTTP \(response.status)"
            throw AuthError(code: .network, message: "the server did not revoke the \(hint.replacingOccurrences(of: "_", with: " ")): \(reason)", oauthError: error.oauthError)
        }
    }
}

/// Sign-out: revoke when possible, then delete the stored login, whatever revocation did.
public enum SignOut {
    /// What happened.
    public struct Outcome: Sendable {
        /// Whether a stored credential was deleted (`false`: nothing was stored).
        public let deleted: Bool
        /// Why revocation failed, when it was attempted and failed (the credential is deleted anyway).
        public let revocationError: AuthError?
        /// Whether a revocation request was attempted.
        public let revoked: Bool
    }

    /// Loads the login under `key`; revokes it through `revocation` (built from the stored
    /// ``LoginConfiguration`` by the caller) unless `revoke` is false or it is `nil`; then
    /// deletes it. Store failures throw ``AuthError/Code/store``.
    public static func run(
        store: any TokenStore, key: CredentialKey, revoke: Bool,
        revocation: @Sendable (LoginConfiguration) throws(AuthError) -> TokenRevocation?
    ) async throws(AuthError) -> Outcome {
        let credential: Credential?
        do { credential = try await store.load(key) } catch { throw .store(error) }
        guard let credential else { return Outcome(deleted: false, revocationError: nil, revoked: false) }
        var failure: AuthError?
        var attempted = false
        if revoke, let tokenSet = try? credential.tokenSet() {
            do {
                if let configuration = try LoginConfiguration(storedIn: tokenSet), let revoker = try revocation(configuration) {
                    attempted = true
                    try await revoker.revoke(tokenSet)
                }
            } catch {
                failure = error
            }
        }
        let deleted: Bool
        do { deleted = try await store.delete(key) } catch { throw .store(error) }
        return Outcome(deleted: deleted, revocationError: failure, revoked: attempted)
    }
}
