internal import TokenKitPrimitives

/// What a ``ClaimRule`` looks at: the token's registered claims (read without building a
/// JSON tree), its header's `typ` and the instant it is judged at.
struct ClaimsUnderTest {
    let claims: RegisteredClaimsView
    /// The header's `typ` (the one header field a claim rule reads).
    let headerType: String?
    /// Seconds since 1970.
    let now: Double
}

/// One check of a token's claims, written once and used by every reader: verification (fast
/// and general path alike, through ``ValidationOptions/firstFailure(in:)``) and the audit,
/// which maps the same rules' failures to its findings. In the style of swift-certificates'
/// verifier policies: a rule is a value, configured at construction.
///
/// A rule returns `nil` when the claims pass; a failure carries facts, not text (see
/// ``ClaimFailure``). Rules assume nothing about the order they run in, except that a claim
/// of the wrong type is the business of the typing rules (``NumericDateTypesRule`` and the
/// string rules), so a time rule ignores a present `exp` that is not a number.
protocol ClaimRule {
    func failure(in subject: ClaimsUnderTest) -> ClaimFailure?
}

/// Every named claim must be a top-level member (names given to the view as its required
/// names, in the same order).
struct RequiredClaimsRule: ClaimRule {
    /// The names, in the order the view was given them and failures list them.
    let names: [String]

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        var missing: [String]?
        for (index, name) in names.enumerated() where !subject.claims.isPresent(requiredAt: index) {
            missing = (missing ?? []) + [name]
        }
        return missing.map { ClaimFailure(detail: .missing($0)) }
    }
}

/// A present `exp`, `nbf` or `iat` must be a NumericDate: a finite number within ±1e15
/// (checked in that order; required or not).
struct NumericDateTypesRule: ClaimRule {
    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        Self.failure(of: .exp, in: subject.claims) ?? Self.failure(of: .nbf, in: subject.claims) ?? Self.failure(of: .iat, in: subject.claims)
    }

    /// The typing failure of one NumericDate claim, if any.
    static func failure(of claim: RegisteredClaimsView.Claim, in claims: RegisteredClaimsView) -> ClaimFailure? {
        switch claims.numericDate(claim) {
        case .absent, .date: nil
        case .wrongType(let kind): ClaimFailure(detail: .notANumericDate(claim: claim.name, found: kind))
        case .outOfRange: ClaimFailure(detail: .numericDateOutOfRange(claim: claim.name, literal: claims.literal(claims[claim])))
        }
    }
}

/// Expired when `now >= exp + leeway` (RFC 7519 §4.1.4).
struct ExpirationRule: ClaimRule {
    let leeway: Double

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        guard case .date(let exp) = subject.claims.numericDate(.exp), subject.now >= exp + leeway else { return nil }
        return ClaimFailure(detail: .expired(exp: exp, now: subject.now, leeway: leeway))
    }
}

/// Not yet valid when `now + leeway < nbf` (RFC 7519 §4.1.5).
struct NotBeforeRule: ClaimRule {
    let leeway: Double

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        guard case .date(let nbf) = subject.claims.numericDate(.nbf), subject.now + leeway < nbf else { return nil }
        return ClaimFailure(detail: .notYetValid(nbf: nbf, now: subject.now, leeway: leeway))
    }
}

/// Issued in the future when `iat > now + leeway`.
struct IssuedAtRule: ClaimRule {
    let leeway: Double

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        guard case .date(let iat) = subject.claims.numericDate(.iat), iat > subject.now + leeway else { return nil }
        return ClaimFailure(detail: .issuedInFuture(iat: iat, now: subject.now))
    }
}

/// Too old when `now - iat > maxAge + leeway`; needs `iat`.
struct MaxAgeRule: ClaimRule {
    let maxAge: Double
    let leeway: Double

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        guard case .date(let iat) = subject.claims.numericDate(.iat) else { return ClaimFailure(detail: .ageNeedsIssuedAt) }
        return subject.now - iat > maxAge + leeway ? ClaimFailure(detail: .tooOld(iat: iat, maxAge: maxAge)) : nil
    }
}

/// `iss` must be a string byte-identical to an accepted issuer.
struct IssuerRule: ClaimRule {
    let accepted: IdentifierSet

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        let iss = subject.claims[.iss]
        switch iss.kind {
        case .absent: return ClaimFailure(detail: .noIssuer)
        case .string:
            guard let text = subject.claims.text(iss), !accepted.contains(where: { text.equals($0) }) else { return nil }
            return ClaimFailure(detail: .issuerNotAccepted(text.decoded))
        default: return ClaimFailure(detail: .notAString(claim: "iss", found: iss.kind))
        }
    }
}

/// `aud` must be a string or a non-empty array of strings (always); with `accepted`, one of
/// its values must be byte-identical to an accepted audience.
struct AudienceRule: ClaimRule {
    let accepted: IdentifierSet?

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        let claims = subject.claims
        let aud = claims[.aud]
        switch aud.kind {
        case .absent:
            return accepted == nil ? nil : ClaimFailure(detail: .noAudience)
        case .string:
            guard let accepted, let text = claims.text(aud), !accepted.contains(where: { text.equals($0) }) else { return nil }
            return ClaimFailure(detail: .audienceNotAccepted(first: [text.decoded], total: 1))
        case .array:
            guard aud.allStrings else { return ClaimFailure(detail: .audienceNotStrings) }
            guard aud.elements > 0 else { return ClaimFailure(detail: .audienceEmpty) }
            guard let accepted else { return nil }
            var matched = false
            claims.forEachString(in: aud) { element in
                if !matched, accepted.contains(where: { element.equals($0) }) { matched = true }
            }
            guard !matched else { return nil }
            var first: [String] = []
            claims.forEachString(in: aud) { element in
                if first.count < 3 { first.append(element.decoded) }
            }
            return ClaimFailure(detail: .audienceNotAccepted(first: first, total: Int(aud.elements)))
        default:
            return ClaimFailure(detail: .audienceNotStrings)
        }
    }
}

/// `sub` must be a string byte-identical to `expected`.
struct SubjectRule: ClaimRule {
    let expected: String

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        let sub = subject.claims[.sub]
        switch sub.kind {
        case .absent: return ClaimFailure(detail: .noSubject)
        case .string:
            guard let text = subject.claims.text(sub), !text.equals(expected) else { return nil }
            return ClaimFailure(detail: .subjectNotExpected(text.decoded))
        default: return ClaimFailure(detail: .notAString(claim: "sub", found: sub.kind))
        }
    }
}

/// Header `typ` must name `expected`: ASCII case ignored and an `application/` prefix
/// removed on both sides (RFC 7515 §4.1.9), otherwise byte-identical.
struct TypeRule: ClaimRule {
    let expected: String

    func failure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        guard let typ = subject.headerType, Self.normalized(typ).isByteIdentical(to: Self.normalized(expected)) else {
            return ClaimFailure(detail: .typeNotExpected(found: subject.headerType, expected: expected))
        }
        return nil
    }

    /// `typ` for comparison: ASCII letters lowercased (only those: RFC 2045 media types),
    /// an `application/` prefix removed.
    static func normalized(_ s: String) -> String {
        let lower = s.asciiLowercased
        return lower.hasPrefix("application/") ? String(lower.dropFirst(12)) : lower
    }
}

extension RegisteredClaimsView {
    /// A NumericDate claim as the typing rule sees it.
    enum NumericDateRead {
        case absent
        case date(Double)
        case wrongType(JSONKind)
        case outOfRange
    }

    /// `claim` read as a NumericDate (RFC 7519 §2): a finite number within ±1e15.
    func numericDate(_ claim: Claim) -> NumericDateRead {
        let value = self[claim]
        switch value.kind {
        case .absent: return .absent
        case .number:
            let seconds = number(value)
            return NumericDate.isInRange(seconds) ? .date(seconds) : .outOfRange
        default: return .wrongType(value.kind)
        }
    }
}

/// The range a NumericDate must be in, for every reader of one.
enum NumericDate {
    /// Finite and below 1e15 in magnitude (about 31.7 million years: any real date, and no
    /// overflow in the arithmetic of the time rules).
    static func isInRange(_ seconds: Double) -> Bool { seconds.isFinite && abs(seconds) < 1e15 }
}
