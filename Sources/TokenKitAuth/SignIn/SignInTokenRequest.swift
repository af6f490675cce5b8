import Foundation
internal import TokenKitPrimitives

/// Sends the sign-in requests that do not go to the token endpoint (device authorization,
/// revocation) with the same rules as the grants: one attempt, a 64 KiB cap on the answer
/// (given to the transport, which stops reading there), errors without secrets.
enum SignInTokenRequest {
    /// The largest answer read from a device authorization, revocation or token endpoint
    /// during sign-in (64 KiB).
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

    /// Renames a refresh-worded OAuth error for a sign-in request: `access_denied` becomes
    /// ``AuthError/Code/accessDenied``, any other ``AuthError/Code/authorizationFailed`` naming
    /// `what` (e.g. "the authorization code"); errors without an OAuth code stay as they are.
    static func oauthError(from error: AuthError, rejecting what: String) -> AuthError {
        guard let code = error.oauthError else { return error }
        let detail = TokenEndpointResponse.printable(code, limit: 64)
        if code.isByteIdentical(to: "access_denied") {
            return .init(code: .accessDenied, message: "access denied: the authorization server refused \(what)", oauthError: code)
        }
        return .authorizationFailed("the authorization server rejected \(what): \(detail)", oauthError: code)
    }
}
