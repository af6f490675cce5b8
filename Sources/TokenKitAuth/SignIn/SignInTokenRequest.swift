import Foundation
import TokenKitStore
internal import TokenKitPrimitives

/// Sends sign-in requests (code exchange, device polling, device authorization, revocation)
/// and reads their answers, with the same rules as the refresh grant: one attempt, errors
/// without secrets, strict JSON.
enum SignInTokenRequest {
    /// The largest response body accepted.
    static let maxResponseBytes = 64 * 1024

    /// The total deadline of one sign-in request unless its flow sets another.
    static let requestTimeout: Duration = .seconds(30)

    /// Sends `request` through the fetch gate with this cap and deadline and no redirect
    /// followed; transport failures become ``AuthError/Code/network`` naming `what`.
    static func send(
        _ request: HTTPTransportRequest, _ what: String, transport: any HTTPTransport, timeout: Duration = requestTimeout
    ) async throws(AuthError) -> HTTPTransportResponse {
        var request = request
        request.maxResponseBytes = maxResponseBytes
        request.timeout = timeout
        request.redirects = .none
        do {
            return try await transport.fetch(request, what: what).response
        } catch {
            throw error.code == .network ? .network("\(what) failed: \(error.message)") : error
        }
    }

    /// A new token set from a token endpoint answer. Non-200 OAuth errors become
    /// ``AuthError/Code/accessDenied`` (`access_denied`) or ``AuthError/Code/authorizationFailed``
    /// naming `what` (e.g. "the authorization code"); non-OAuth answers stay
    /// ``AuthError/Code/invalidResponse``.
    static func tokenSet(from response: HTTPTransportResponse, rejecting what: String, now: Date) throws(AuthError) -> TokenSet {
        if response.status != 200, response.body.count <= maxResponseBytes {
            throw oauthError(from: TokenEndpointResponse.error(from: response), rejecting: what)
        }
        do {
            return try TokenEndpointResponse.tokenSet(
                from: response, previous: TokenSet(accessToken: "", tokenType: nil), now: now, maxBytes: maxResponseBytes)
        } catch {
            throw oauthError(from: error, rejecting: what)
        }
    }

    /// Renames a refresh-worded OAuth error for a sign-in request.
    static func oauthError(from error: AuthError, rejecting what: String) -> AuthError {
        guard let code = error.oauthError else { return error }
        let detail = TokenEndpointResponse.printable(code, limit: 64)
        if code.isByteIdentical(to: "access_denied") {
            return .init(code: .accessDenied, message: "access denied: the authorization server refused \(what)", oauthError: code)
        }
        return .authorizationFailed("the authorization server rejected \(what): \(detail)", oauthError: code)
    }
}
