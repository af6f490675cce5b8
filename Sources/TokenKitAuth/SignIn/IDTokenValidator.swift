import Foundation
import TokenKit
internal import TokenKitPrimitives

/// Validates an OpenID Connect ID token received from the token endpoint, per OpenID Connect
/// Core 1.0 §3.1.3.7, before anything is stored.
///
/// Checks, each failure an ``AuthError/Code/invalidIDToken`` naming the reason: signature by a
/// key of the issuer's JWKS with an asymmetric algorithm (RS*, PS*, ES*, EdDSA; `none` and HMAC
/// refused); `iss` equals ``issuer`` exactly; `aud` contains ``clientID``; with several
/// audiences `azp` is present; a present `azp` equals ``clientID``; (`iss`, `aud` and `azp`
/// byte for byte, never by Unicode canonical equivalence); `exp` is in the future and
/// `iat` is present and not in the future (both with ``leeway``); `sub` is present; `nonce`
/// equals the one sent (and is present whenever one was sent).
/// It does not check `at_hash`/`c_hash` (the code flow's token comes straight from the token
/// endpoint over TLS) nor `auth_time`/`acr`.
public struct IDTokenValidator: Sendable {
    /// The expected `iss`.
    public let issuer: String
    /// The client id that must be in `aud` (and equal `azp` when present).
    public let clientID: String
    /// Clock skew tolerated for `exp` and `iat` (a negative span counts as zero).
    public let leeway: Duration

    /// Algorithms an ID token may be signed with (asymmetric only).
    public static let algorithms: Set<JWTAlgorithm> = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .es256, .es384, .es512, .eddsa]

    /// Creates a validator for tokens issued by `issuer` to `clientID`.
    public init(issuer: String, clientID: String, leeway: Duration = .seconds(60)) {
        self.issuer = issuer
        self.clientID = clientID
        self.leeway = leeway
    }

    /// The token's claims when every check passes. `nonce` is the value sent in the
    /// authorization request (`nil` when none was sent, e.g. the device grant).
    public func validate(_ idToken: String, nonce: String?, keys: JWKSet, now: Date = Date()) throws(AuthError) -> JWTClaims {
        let clientID = clientID
        let options = ValidationOptions(
            algorithms: Self.algorithms, leeway: leeway, requiredClaims: ["iss", "sub", "aud", "exp", "iat"],
            issuers: [issuer], audiences: [clientID], clock: FixedClock(now),
            customCheck: { (_: JWTHeader, claims: JWTClaims) throws(JWTError) -> Void in
                let audiences = try claims.audience() ?? []
                let azp = try claims.string("azp")
                if audiences.count > 1, azp == nil {
                    throw JWTError(code: .customCheckFailed, reason: "the ID token has several audiences but no azp")
                }
                if let azp, !azp.isByteIdentical(to: clientID) {
                    throw JWTError(code: .customCheckFailed, reason: "the ID token's azp is another client")
                }
                let sent = try claims.string("nonce")
                if let nonce {
                    guard let sent else { throw JWTError(code: .customCheckFailed, reason: "the ID token has no nonce") }
                    guard ConstantTime.equal(sent, nonce) else {
                        throw JWTError(code: .customCheckFailed, reason: "the ID token's nonce is not the one sent (a substituted token)")
                    }
                }
            })
        do {
            return try JWTVerifier(keys: keys, options: options).verify(idToken).claims
        } catch {
            throw AuthError(code: .invalidIDToken, message: "the ID token is not valid: \(error.description)")
        }
    }
}
