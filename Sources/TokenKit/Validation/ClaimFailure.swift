/// Why a token's claims fail a ``ClaimRule``. It holds the facts only; the reason text is
/// built when someone reads ``reason`` or ``error`` (the verify fast path never does when
/// every rule passes, and a rule that passes builds nothing).
struct ClaimFailure: Sendable {
    /// The facts behind a failure.
    enum Detail: Sendable {
        /// Required claims absent from the token, in the rule's order (never empty).
        case missing([String])
        /// A NumericDate claim that is present but not a number.
        case notANumericDate(claim: String, found: JSONKind)
        /// A NumericDate claim that is a number outside ±1e15 (or not finite).
        case numericDateOutOfRange(claim: String, literal: String)
        /// A claim that must be a string but is not.
        case notAString(claim: String, found: JSONKind)
        /// `aud` that is neither a string nor an array of strings.
        case audienceNotStrings
        /// `aud` that is an empty array.
        case audienceEmpty
        case expired(exp: Double, now: Double, leeway: Double)
        case notYetValid(nbf: Double, now: Double, leeway: Double)
        case issuedInFuture(iat: Double, now: Double)
        case ageNeedsIssuedAt
        case tooOld(iat: Double, maxAge: Double)
        case noIssuer
        case issuerNotAccepted(String)
        case noAudience
        case audienceNotAccepted(first: [String], total: Int)
        case noSubject
        case subjectNotExpected(String)
        case typeNotExpected(found: String?, expected: String)
    }

    /// The facts.
    let detail: Detail

    /// The error code of this failure.
    var code: JWTError.Code {
        switch detail {
        case .missing, .ageNeedsIssuedAt: .missingClaim
        case .notANumericDate, .numericDateOutOfRange, .notAString, .audienceNotStrings, .audienceEmpty: .invalidClaim
        case .expired: .expired
        case .notYetValid: .notYetValid
        case .issuedInFuture: .issuedInFuture
        case .tooOld: .tooOld
        case .noIssuer, .issuerNotAccepted: .issuerMismatch
        case .noAudience, .audienceNotAccepted: .audienceMismatch
        case .noSubject, .subjectNotExpected: .subjectMismatch
        case .typeNotExpected: .typeMismatch
        }
    }

    /// One line for people: names the claim and the values involved (cleaned and
    /// shortened when they come from the token), never the token.
    var reason: String { error.reason }

    /// The failure as the ``JWTError`` verification throws.
    var error: JWTError {
        switch detail {
        case .missing(let names):
            return JWTError(code: code, reason: "required claim \"\(names.first ?? "")\" is missing")
        case .notANumericDate(let claim, let found):
            return .invalidClaim(claim, "must be a NumericDate (a number), found \(found.typeName)")
        case .numericDateOutOfRange(let claim, let literal):
            return .invalidClaim(claim, "NumericDate \(literal) is out of range")
        case .notAString(let claim, let found):
            return .invalidClaim(claim, "must be a string, found \(found.typeName)")
        case .audienceNotStrings:
            return .invalidClaim("aud", "must be a string or an array of strings")
        case .audienceEmpty:
            return .invalidClaim("aud", "must not be an empty array")
        case .expired(let exp, let now, let leeway):
            return JWTError(code: code, reason: "token expired at \(NumericDateFormatter.string(exp)) (now \(NumericDateFormatter.string(now))\(Self.leewayNote(leeway)))")
        case .notYetValid(let nbf, let now, let leeway):
            return JWTError(code: code, reason: "token not valid before \(NumericDateFormatter.string(nbf)) (now \(NumericDateFormatter.string(now))\(Self.leewayNote(leeway)))")
        case .issuedInFuture(let iat, let now):
            return JWTError(code: code, reason: "token issued in the future at \(NumericDateFormatter.string(iat)) (now \(NumericDateFormatter.string(now)))")
        case .ageNeedsIssuedAt:
            return JWTError(code: code, reason: "claim \"iat\" is required to check the token's age")
        case .tooOld(let iat, let maxAge):
            return JWTError(code: code, reason: "token issued at \(NumericDateFormatter.string(iat)) is older than \(Self.seconds(maxAge))")
        case .noIssuer:
            return JWTError(code: code, reason: "token has no issuer (iss)")
        case .issuerNotAccepted(let issuer):
            return JWTError(code: code, reason: "issuer \"\(JSONNameShortener.shorten(issuer))\" is not accepted")
        case .noAudience:
            return JWTError(code: code, reason: "token has no audience (aud)")
        case .audienceNotAccepted(let first, let total):
            let shown = first.map { "\"\(JSONNameShortener.shorten($0))\"" }.joined(separator: ", ")
            return JWTError(code: code, reason: "audience mismatch: token is for \(shown)\(total > first.count ? ", …" : "")")
        case .noSubject:
            return JWTError(code: code, reason: "token has no subject (sub)")
        case .subjectNotExpected(let subject):
            return JWTError(code: code, reason: "subject \"\(JSONNameShortener.shorten(subject))\" is not the expected one")
        case .typeNotExpected(let found, let expected):
            return JWTError(code: code, reason: "header typ \"\(JSONNameShortener.shorten(found ?? "(none)"))\" is not \"\(expected)\"")
        }
    }

    private static func leewayNote(_ leeway: Double) -> String {
        leeway > 0 ? ", leeway \(seconds(leeway))" : ""
    }

    /// A span of seconds as `90s` (whole) or `1.5s` (``SecondsText``'s digits).
    static func seconds(_ s: Double) -> String {
        SecondsText.format(s) + "s"
    }
}
