import Foundation
import TokenKit
internal import TokenKitPrimitives

/// What an ID token in one token endpoint answer must be, for ``TokenResponseAdmission``.
///
/// Every ID token that arrives — at sign-in, on a refresh, with client credentials — is
/// validated the way a login's is (``IDTokenValidator``: signature by a key of ``issuer``'s
/// JWKS, `iss`, `aud`, `azp`, `exp`, `iat`, and `nonce` when one was sent), and, when
/// ``subject`` is known, must name that subject: a refresh cannot swap the signed-in account.
/// An ID token that cannot be validated (no issuer known) refuses the whole answer.
struct IDTokenExpectation: Sendable {
    /// Whose ID tokens are accepted; `nil` when none can be validated.
    let issuer: IDTokenIssuer?
    /// The client id the token must be issued to (`aud`, `azp`).
    let clientID: String
    /// The nonce sent in the authorization request, or `nil` when none was sent.
    let nonce: String?
    /// The `sub` of the stored login, when there is one: a new ID token must name it too.
    let subject: String?
    /// Whether an ID token must be present (scope `openid` was requested at sign-in).
    let required: Bool

    /// The metadata key holding the validated ID token's `sub`.
    static let subjectKey = "login.subject"
    /// The metadata key holding the validated ID token's `email`, when it has one.
    static let emailKey = "login.email"

    /// What a validated ID token told: its subject and e-mail address.
    struct Identity: Sendable {
        let subject: String
        let email: String?
    }

    /// Validates `idToken` (`nil`: the answer had none); returns its identity, or `nil` when
    /// there was no ID token and none was required. Every refusal is
    /// ``AuthError/Code/invalidIDToken`` naming the reason (never the token), except a JWKS
    /// that cannot be fetched (``AuthError/Code/invalidResponse``).
    func check(_ idToken: String?, transport: any HTTPTransport, now: Date) async throws(AuthError) -> Identity? {
        guard let idToken else {
            if required { throw AuthError(code: .invalidIDToken, message: "scope openid was requested but no ID token came back") }
            return nil
        }
        guard let issuer else {
            throw AuthError(
                code: .invalidIDToken,
                message: "the answer carries an ID token, but no issuer and JWKS are known to validate it (use --issuer): refused, nothing stored")
        }
        let keys = try await SignInDiscovery.keys(issuer.jwksURI, transport: transport)
        let claims = try IDTokenValidator(issuer: issuer.issuer, clientID: clientID).validate(idToken, nonce: nonce, keys: keys, now: now)
        guard let sub = try? claims.subject(), !sub.isEmpty else {
            throw AuthError(code: .invalidIDToken, message: "the ID token is not valid: its sub is not a non-empty string")
        }
        if let subject, !sub.isByteIdentical(to: subject) {
            throw AuthError(
                code: .invalidIDToken,
                message: "the new ID token names another subject than the stored login (an account swap): refused, nothing stored")
        }
        let email = (try? claims.string("email")).flatMap { $0 }.flatMap { $0.isEmpty || $0.utf8.count > 320 ? nil : $0 }
        return Identity(subject: sub, email: email)
    }
}
