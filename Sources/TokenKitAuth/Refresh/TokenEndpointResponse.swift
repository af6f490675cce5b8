import Foundation
import TokenKitStore

/// Reads a token endpoint's answer to a refresh_token grant (RFC 6749 §5.1 and §5.2).
enum TokenEndpointResponse {
    /// The new token set for a `200` answer, merged with `previous`: a missing
    /// `refresh_token`, `scope` or `id_token` keeps the previous value, `expires_in` becomes
    /// `expires_at` relative to `now`, and `metadata` is carried over.
    ///
    /// Throws ``AuthError/Code/signInRequired`` for `invalid_grant`,
    /// ``AuthError/Code/refreshRejected`` for other OAuth errors, and
    /// ``AuthError/Code/invalidResponse`` for anything that is not a valid answer.
    static func tokenSet(
        from response: HTTPTransportResponse, previous: TokenSet, now: Date, maxBytes: Int
    ) throws(AuthError) -> TokenSet {
        guard response.body.count <= maxBytes else {
            throw .invalidResponse("body is larger than \(maxBytes) bytes")
        }
        guard response.status == 200 else { throw error(from: response) }
        let success: SuccessBody
        do {
            success = try JSONDecoder().decode(SuccessBody.self, from: Data(response.body))
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidResponse("missing \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw .invalidResponse("wrong type for \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\"")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .invalidResponse("bad value for \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\"")
        } catch {
            throw .invalidResponse("body is not a JSON object (HTTP 200)")
        }
        guard !success.accessToken.isEmpty else { throw .invalidResponse("\"access_token\" is empty") }
        guard success.tokenType.lowercased() == "bearer" else {
            throw .invalidResponse("token_type \"\(printable(success.tokenType, limit: 40))\" is not Bearer")
        }
        var expiresAt: Date?
        if let seconds = success.expiresIn {
            guard seconds >= 0, seconds < 1e9 else { throw .invalidResponse("\"expires_in\" is out of range") }
            expiresAt = now.addingTimeInterval(seconds)
        }
        return TokenSet(
            accessToken: success.accessToken,
            refreshToken: success.refreshToken ?? previous.refreshToken,
            idToken: success.idToken ?? previous.idToken,
            tokenType: "Bearer",
            expiresAt: expiresAt,
            scope: success.scope ?? previous.scope,
            metadata: previous.metadata)
    }

    /// The error for a non-200 answer: the OAuth error when the body is one (§5.2), else the status.
    static func error(from response: HTTPTransportResponse) -> AuthError {
        guard let body = try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body)),
              !body.error.isEmpty
        else { return .invalidResponse("unexpected HTTP status \(response.status)") }
        let code = printable(body.error, limit: 64)
        let detail = body.errorDescription.map { " (\(printable($0, limit: 200)))" } ?? ""
        if body.error == "invalid_grant" {
            return .signInRequired("the token endpoint rejected the refresh token: invalid_grant\(detail)", oauthError: code)
        }
        return AuthError(
            code: .refreshRejected,
            message: "the token endpoint rejected the refresh: \(code)\(detail) (HTTP \(response.status))",
            oauthError: code)
    }

    /// `text` restricted to the characters RFC 6749 §5.2 allows in `error` and
    /// `error_description` (printable ASCII), cut to `limit` characters.
    static func printable(_ text: String, limit: Int) -> String {
        let kept = text.unicodeScalars.prefix(limit).map { scalar -> Character in
            (0x20...0x7E).contains(scalar.value) && scalar != "\"" && scalar != "\\" ? Character(scalar) : "?"
        }
        return String(kept) + (text.unicodeScalars.count > limit ? "…" : "")
    }
}

/// A successful token response (RFC 6749 §5.1).
private struct SuccessBody: Decodable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Double?
    let refreshToken: String?
    let scope: String?
    let idToken: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case idToken = "id_token"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decode(String.self, forKey: .accessToken)
        tokenType = try c.decode(String.self, forKey: .tokenType)
        // A JSON number per the RFC; a string of digits is accepted because some servers send one.
        if let number = try? c.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = number
        } else if let text = try c.decodeIfPresent(String.self, forKey: .expiresIn) {
            guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let number = Double(text)
            else {
                throw DecodingError.dataCorruptedError(forKey: .expiresIn, in: c, debugDescription: "not a number")
            }
            expiresIn = number
        } else {
            expiresIn = nil
        }
        refreshToken = try c.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
        idToken = try c.decodeIfPresent(String.self, forKey: .idToken)
    }
}

/// An error response (RFC 6749 §5.2).
private struct ErrorBody: Decodable {
    let error: String
    let errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
