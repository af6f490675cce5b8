#if Hummingbird
import TokenKit

/// The fixed label values of `tokenkit_verifications_total{result}`: what became of a
/// request's token. Never a value taken from the token.
enum VerificationResult: Int, CaseIterable, Sendable {
    /// The token verified.
    case ok
    /// The token (or the way it was sent) was refused: `400` or `401`.
    case invalidToken
    /// A protected route was asked for without a token: `401`.
    case missingToken
    /// A verified token lacked a scope or role the route needs: `403`.
    case insufficientScope
    /// The keys that would verify it could not be had: `503`.
    case unavailable

    /// The label value (a contract: dashboards select on it).
    var label: String {
        switch self {
        case .ok: "ok"
        case .invalidToken: "invalid_token"
        case .missingToken: "missing_token"
        case .insufficientScope: "insufficient_scope"
        case .unavailable: "unavailable"
        }
    }
}

/// The fixed label values of `tokenkit_verification_failures_total{reason}`: why a token was
/// refused, from the library's error code (never from the token's content).
enum VerificationFailureReason: Int, CaseIterable, Sendable {
    case expired, notYetValid, badSignature, unknownKid, issuer, audience, malformed, algorithm, other

    /// The label value (a contract: dashboards select on it).
    var label: String {
        switch self {
        case .expired: "expired"
        case .notYetValid: "not_yet_valid"
        case .badSignature: "bad_signature"
        case .unknownKid: "unknown_kid"
        case .issuer: "issuer"
        case .audience: "audience"
        case .malformed: "malformed"
        case .algorithm: "algorithm"
        case .other: "other"
        }
    }

    /// The reason for a refusal with `code`: `iat` in the future counts as `not_yet_valid`;
    /// a token too large, of the wrong shape or with a claim of the wrong type as
    /// `malformed`; `none`, unknown or disallowed algorithms as `algorithm`; anything else
    /// (a missing required claim, `sub`/`typ`/age checks, custom checks, `crit`) as `other`.
    init(_ code: JWTError.Code) {
        switch code {
        case .expired: self = .expired
        case .notYetValid, .issuedInFuture: self = .notYetValid
        case .badSignature: self = .badSignature
        case .noMatchingKey: self = .unknownKid
        case .issuerMismatch: self = .issuer
        case .audienceMismatch: self = .audience
        case .malformed, .tooLarge, .invalidClaim: self = .malformed
        case .unsecured, .unsupportedAlgorithm, .algorithmNotAllowed: self = .algorithm
        default: self = .other
        }
    }
}
#endif
