import Foundation
import TokenKitAuth
import TokenKitStore

/// A ``TokenRefresher`` for the reference servers' `POST /auth/refresh`
/// (`{"refresh_token"}` in, a new token pair out).
///
/// Guarantees: a 401 or 400 answer (the refresh token was rejected: reused, revoked,
/// expired, unknown) is ``AuthError/Code/signInRequired``, so ``AuthProvider`` clears the
/// stored session; the new pair keeps the old token set's metadata; no token appears in
/// an error.
public struct RefreshEndpoint: TokenRefresher {
    /// The server's base URL.
    public let baseURL: URL
    /// The transport used (without authorization: the refresh token is the credential).
    public let transport: any HTTPTransport

    /// A refresher posting to `baseURL/auth/refresh` over `transport`.
    public init(baseURL: URL, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    /// Exchanges `tokenSet`'s refresh token for a new pair.
    public func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet {
        guard let refreshToken = tokenSet.refreshToken else { throw AuthError.signInRequired("no refresh token is stored") }
        let response: HTTPTransportResponse
        do {
            response = try await APIClient(baseURL: baseURL, transport: transport)
                .raw("POST", "/auth/refresh", body: ["refresh_token": refreshToken])
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError.network("the refresh request failed")
        }
        if response.status == 401 || response.status == 400 {
            throw AuthError.signInRequired("the server rejected the refresh token (\(APIClient.serverMessage(response)))")
        }
        guard response.status == 200 else {
            throw AuthError.invalidResponse("HTTP \(response.status) from /auth/refresh")
        }
        do {
            var fresh = try LoginTokens.tokenSet(from: response.body)
            fresh.metadata = tokenSet.metadata
            return fresh
        } catch {
            throw AuthError.invalidResponse(error.message)
        }
    }
}

/// The token fields of a login or refresh answer.
public enum LoginTokens {
    /// A token set from `{"access_token","refresh_token","expires_in",…}`.
    public static func tokenSet(from body: [UInt8], now: Date = Date()) throws(ClientFailure) -> TokenSet {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw ClientFailure("the server's token answer is not a JSON object")
        }
        return try tokenSet(from: object, now: now)
    }

    /// A token set from an already parsed answer.
    public static func tokenSet(from object: [String: Any], now: Date = Date()) throws(ClientFailure) -> TokenSet {
        guard let access = object["access_token"] as? String, !access.isEmpty else {
            throw ClientFailure("the server's token answer has no access_token")
        }
        let refresh = object["refresh_token"] as? String
        let expiresIn = (object["expires_in"] as? NSNumber)?.doubleValue
        return TokenSet(accessToken: access, refreshToken: refresh, tokenType: "Bearer",
                        expiresAt: expiresIn.map { now.addingTimeInterval($0) })
    }
}
