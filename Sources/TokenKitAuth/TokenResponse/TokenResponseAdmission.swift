import Foundation
import TokenKit
internal import TokenKitPrimitives

/// The one admission check every token endpoint answer goes through before it becomes a
/// token set — for every grant (authorization code, device code, refresh token, client
/// credentials), DPoP-bound or Bearer. No grant reads a token response any other way.
///
/// Rules, in order; the first that fails refuses the whole answer with an ``AuthError`` that
/// names the rule and never a token:
/// 1. The body is at most ``Expectation/maxBytes`` (the fetch gate already stops reading there
///    and refuses with ``AuthError/Code/network``; this is the backstop for a transport that
///    ignores the request's cap).
/// 2. A non-200 status is the grant's refusal (``TokenGrantKind/refusal(_:)``).
/// 3. The body is one strict JSON object (TokenKit's reader: no duplicate members).
/// 4. `access_token` is present and an RFC 6750 `b64token`; `refresh_token` (kept, except for
///    client credentials where it is ignored) is `1*VSCHAR`; `id_token` has the compact JWT
///    shape (``TokenCharacterSet``).
/// 5. `token_type` is `DPoP` when a DPoP proof was sent (a `Bearer` answer to a DPoP request
///    is refused: the server ignored the proof) and `Bearer` otherwise (case-insensitively).
/// 6. `expires_in`, when present, is a number of seconds (or a string of digits) below 10^9;
///    when absent the access token is given ``assumedLifetime`` (5 minutes) — for every grant.
/// 7. An `id_token`, in any answer, is validated like a login's (``IDTokenExpectation``):
///    signature through the issuer's JWKS, `iss`, `aud`, `azp`, `exp`, `iat`, `nonce` where
///    one was sent, and the stored login's `sub` on a refresh; one that cannot be validated
///    refuses the answer. Its `sub` (and `email`) are recorded in the set's metadata.
///
/// Only an answer that passed every rule is returned, so a caller that stores the result
/// (``AuthProvider``, `tokenkit login`) never stores anything the gate refused. Does not:
/// check the access token itself (it may be opaque), or the granted scope.
@usableFromInline
enum TokenResponseAdmission {
    /// The lifetime of an access token whose answer has no `expires_in`: 5 minutes (the
    /// default of the grants' public `assumedLifetime` parameters, hence usable from inline).
    @usableFromInline
    static let assumedLifetime: Duration = .seconds(300)

    /// What one request expects of its answer.
    struct Expectation: Sendable {
        /// The grant that asked.
        var grant: TokenGrantKind
        /// Whether the request carried a DPoP proof.
        var dpop: Bool
        /// How an ID token in the answer is judged.
        var idToken: IDTokenExpectation
        /// The largest body read.
        var maxBytes: Int
        /// The lifetime given when `expires_in` is absent.
        var assumedLifetime: Duration = TokenResponseAdmission.assumedLifetime
    }

    /// The token set for `response`, merged with `previous`: a missing `refresh_token`,
    /// `scope` or `id_token` keeps the previous value; `metadata` and the DPoP key are carried
    /// over. See the type's rules for everything that is refused.
    static func admit(
        _ response: HTTPTransportResponse, _ expectation: Expectation, previous: TokenSet, now: Date,
        transport: any HTTPTransport
    ) async throws(AuthError) -> TokenSet {
        guard response.body.count <= expectation.maxBytes else {
            throw .invalidResponse("body is larger than \(expectation.maxBytes) bytes")
        }
        guard response.status == 200 else { throw expectation.grant.refusal(response) }
        let body = try TokenEndpointResponse.object(response.body)
        let accessToken = try TokenEndpointResponse.string("access_token", in: body, required: true) ?? ""
        try TokenCharacterSet.checkAccessToken(accessToken)
        let tokenType = try self.tokenType(in: body, dpop: expectation.dpop)
        let lifetime = try TokenEndpointResponse.expiresIn(body) ?? expectation.assumedLifetime.seconds
        var refreshToken: String?
        if expectation.grant != .clientCredentials {
            refreshToken = try TokenEndpointResponse.string("refresh_token", in: body)
            if let refreshToken { try TokenCharacterSet.checkRefreshToken(refreshToken) }
        }
        let idToken = try TokenEndpointResponse.string("id_token", in: body)
        if let idToken { try TokenCharacterSet.checkIDToken(idToken) }
        let scope = try TokenEndpointResponse.string("scope", in: body)
        let identity = try await expectation.idToken.check(idToken, transport: transport, now: now)
        var metadata = previous.metadata
        if let identity {
            metadata[IDTokenExpectation.subjectKey] = identity.subject
            metadata[IDTokenExpectation.emailKey] = identity.email
        }
        return TokenSet(
            accessToken: accessToken,
            refreshToken: refreshToken ?? previous.refreshToken,
            // A client has no use for a client-credentials ID token once it passed the check.
            idToken: expectation.grant == .clientCredentials ? nil : idToken ?? previous.idToken,
            tokenType: tokenType,
            expiresAt: now.addingTimeInterval(lifetime),
            scope: scope ?? previous.scope,
            metadata: metadata,
            dpopKey: previous.dpopKey)
    }

    /// `"DPoP"` or `"Bearer"`, whichever the request calls for (RFC 9449 §5: a DPoP request's
    /// answer is `DPoP`; RFC 6750: otherwise `Bearer`); anything else is refused. The type is
    /// case-insensitive (RFC 6749 §7.1) in ASCII only: no Unicode case mapping or normalisation.
    private static func tokenType(in body: JSONObject, dpop: Bool) throws(AuthError) -> String {
        let received = try TokenEndpointResponse.string("token_type", in: body, required: true) ?? ""
        let expected = dpop ? "DPoP" : "Bearer"
        guard received.isASCIICaseInsensitiveEqual(to: expected) else {
            let shown = TokenEndpointResponse.printable(received, limit: 40)
            if dpop, received.isASCIICaseInsensitiveEqual(to: "Bearer") {
                throw .invalidResponse("token_type \"\(shown)\" is not DPoP: the server ignored the DPoP proof and issued a Bearer token (refused: this client asked for DPoP-bound tokens)")
            }
            throw .invalidResponse("token_type \"\(shown)\" is not \(expected)")
        }
        return expected
    }
}
