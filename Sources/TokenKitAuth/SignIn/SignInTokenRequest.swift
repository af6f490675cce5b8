import Foundation

/// Sends the sign-in requests that do not go to the token endpoint (device authorization,
/// revocation) with the same rules as the grants: one attempt, a 64 KiB cap on the answer
/// (given to the transport, which stops reading there), errors without secrets.
enum SignInTokenRequest {
    /// The largest answer read from a device authorization, revocation or token endpoint
    /// during sign-in (64 KiB).
    static let maxResponseBytes = 64 * 1024

    /// Sends `request` with the 64 KiB cap; transport failures become
    /// ``AuthError/Code/network`` naming `what`.
    static func send(_ request: HTTPTransportRequest, _ what: String, transport: any HTTPTransport) async throws(AuthError) -> HTTPTransportResponse {
        var request = request
        request.maxResponseBytes = min(request.maxResponseBytes ?? maxResponseBytes, maxResponseBytes)
        do {
            return try await transport.send(request)
        } catch let error as AuthError {
            throw error.code == .network ? .network("\(what) failed: \(error.message)") : error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .network("\(what) failed (\(type(of: error)))")
        }
    }

    /// Renames a refresh-worded OAuth error for a sign-in request: `access_denied` becomes
    /// ``AuthError/Code/accessDenied``, any other ``AuthError/Code/authorizationFailed`` naming
    /// `what` (e.g. "the authorization code"); errors without an OAuth code stay as they are.
    static func oauthError(from error: AuthError, rejecting what: String) -> AuthError {
        guard let code = error.oauthError else { return error }
        let detail = TokenEndpointResponse.printable(code, limit: 64)
        if code == "access_denied" {
            return .init(code: .accessDenied, message: "access denied: the authorization server refused \(what)", oauthError: code)
        }
        return .authorizationFailed("the authorization server rejected \(what): \(detail)", oauthError: code)
    }
}
