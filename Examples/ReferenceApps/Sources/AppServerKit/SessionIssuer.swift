import Foundation
import HummingbirdBcrypt
import TokenKit

/// The tokens a sign-in or a refresh hands out.
public struct SessionTokens: Sendable {
    /// The ES256 access token.
    public let accessToken: String
    /// The opaque refresh token, `<id>.<secret>`.
    public let refreshToken: String
    /// Seconds until the access token expires.
    public let expiresIn: Int

    /// The response fields `access_token`, `token_type`, `refresh_token`, `expires_in`.
    public var fields: [String: JSONField] {
        ["access_token": .string(accessToken), "token_type": .string("Bearer"),
         "refresh_token": .string(refreshToken), "expires_in": .int(expiresIn)]
    }
}

/// Starts, rotates and ends sessions: an access token plus a rotating refresh token.
///
/// Guarantees:
/// - A refresh token works once: exchanging it returns a new pair and marks it used.
/// - Presenting a used refresh token again revokes its whole family (every token refreshed
///   from the same sign-in), so both the thief and the user are signed out: 401.
/// - Logout revokes the family. Unknown, malformed, expired or revoked tokens: 401.
/// - Only a bcrypt hash of each refresh token's secret part is stored.
public struct SessionIssuer: Sendable {
    /// Signs access tokens.
    public let accessTokens: AccessTokenIssuer
    /// Keeps refresh-token records.
    public let records: any RefreshTokenRecords
    /// How long refresh tokens live (default 30 days).
    public let refreshLifetime: TimeInterval

    /// Creates an issuer over `records`.
    public init(accessTokens: AccessTokenIssuer, records: any RefreshTokenRecords, refreshLifetime: TimeInterval = 30 * 86_400) {
        self.accessTokens = accessTokens
        self.records = records
        self.refreshLifetime = refreshLifetime
    }

    /// Starts a new session (a new refresh-token family) for `subject` with `role`.
    public func start(subject: String, role: String) async throws -> SessionTokens {
        try await issue(subject: subject, role: role, family: Self.randomToken(bytes: 16))
    }

    /// Exchanges `refreshToken` for a new pair; see the type's guarantees.
    public func refresh(_ refreshToken: String) async throws -> SessionTokens {
        let record = try await validRecord(refreshToken)
        guard try await records.markUsed(id: record.id) else {
            // Lost a race with another use of the same token: that is a reuse too.
            try await records.revokeFamily(record.family)
            throw APIError.unauthorized("refresh token was already used; the session has been revoked")
        }
        return try await issue(subject: record.subject, role: record.role, family: record.family)
    }

    /// Revokes the session `refreshToken` belongs to.
    public func logout(_ refreshToken: String) async throws {
        let record = try await knownRecord(refreshToken)
        try await records.revokeFamily(record.family)
    }

    private func validRecord(_ token: String) async throws -> RefreshTokenRecord {
        let record = try await knownRecord(token)
        if record.revoked { throw APIError.unauthorized("refresh token has been revoked") }
        if record.used {
            try await records.revokeFamily(record.family)
            throw APIError.unauthorized("refresh token was already used; the session has been revoked")
        }
        if record.expiresAt <= Date() { throw APIError.unauthorized("refresh token has expired") }
        return record
    }

    private func knownRecord(_ token: String) async throws -> RefreshTokenRecord {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 22, parts[1].count == 43,
              let record = try await records.find(id: String(parts[0])),
              Bcrypt.verify(String(parts[1]), hash: record.secretHash)
        else { throw APIError.unauthorized("refresh token is not valid") }
        return record
    }

    private func issue(subject: String, role: String, family: String) async throws -> SessionTokens {
        let id = Self.randomToken(bytes: 16)
        let secret = Self.randomToken(bytes: 32)
        // The secret has 256 random bits, so the minimum bcrypt cost already makes the
        // stored hash useless to whoever reads the database.
        try await records.insert(RefreshTokenRecord(
            id: id, family: family, subject: subject, role: role,
            secretHash: Bcrypt.hash(secret, cost: 4), expiresAt: Date().addingTimeInterval(refreshLifetime)))
        let access = try accessTokens.issue(subject: subject, role: role)
        return SessionTokens(accessToken: access, refreshToken: "\(id).\(secret)", expiresIn: accessTokens.lifetime)
    }

    /// `bytes` random bytes from the system's CSPRNG, base64url without padding.
    static func randomToken(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let raw = (0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(raw)
    }
}
