/// Applies ``ValidationOptions`` to a token whose signature has already been checked.
enum ClaimValidator {
    static func validate(header: JWTHeader, claims: JWTClaims, options: ValidationOptions) throws(JWTError) {
        let now = options.clock.now()
        let leeway = options.leeway

        for name in options.requiredClaims.sorted() where claims[name] == nil {
            throw JWTError(code: .missingClaim, reason: "required claim \"\(name)\" is missing")
        }
        // Typed reads first: a malformed exp/nbf/iat is refused even when not required.
        let exp = try claims.expiration()
        let nbf = try claims.notBefore()
        let iat = try claims.issuedAt()

        if let exp, now >= exp + leeway {
            throw JWTError(code: .expired, reason: "token expired at \(NumericDateFormatter.string(exp)) (now \(NumericDateFormatter.string(now))\(leewayNote(leeway)))")
        }
        if let nbf, now + leeway < nbf {
            throw JWTError(code: .notYetValid, reason: "token not valid before \(NumericDateFormatter.string(nbf)) (now \(NumericDateFormatter.string(now))\(leewayNote(leeway)))")
        }
        if let iat, options.rejectIssuedInFuture, iat > now + leeway {
            throw JWTError(code: .issuedInFuture, reason: "token issued in the future at \(NumericDateFormatter.string(iat)) (now \(NumericDateFormatter.string(now)))")
        }
        if let maxAge = options.maxAge {
            guard let iat else { throw JWTError(code: .missingClaim, reason: "claim \"iat\" is required to check the token's age") }
            if now - iat > maxAge + leeway {
                throw JWTError(code: .tooOld, reason: "token issued at \(NumericDateFormatter.string(iat)) is older than \(formatSeconds(maxAge))")
            }
        }
        if let issuers = options.issuers {
            guard let iss = try claims.issuer() else { throw JWTError(code: .issuerMismatch, reason: "token has no issuer (iss)") }
            guard issuers.contains(iss) else {
                throw JWTError(code: .issuerMismatch, reason: "issuer \"\(JSONNameShortener.shorten(iss))\" is not accepted")
            }
        }
        if let audiences = options.audiences {
            guard let aud = try claims.audience() else { throw JWTError(code: .audienceMismatch, reason: "token has no audience (aud)") }
            guard aud.contains(where: audiences.contains) else {
                let shown = aud.prefix(3).map { "\"\(JSONNameShortener.shorten($0))\"" }.joined(separator: ", ")
                throw JWTError(code: .audienceMismatch, reason: "audience mismatch: token is for \(shown)\(aud.count > 3 ? ", …" : "")")
            }
        } else {
            _ = try claims.audience()  // still refuse a malformed aud
        }
        if let subject = options.subject {
            guard let sub = try claims.subject() else { throw JWTError(code: .subjectMismatch, reason: "token has no subject (sub)") }
            guard sub == subject else {
                throw JWTError(code: .subjectMismatch, reason: "subject \"\(JSONNameShortener.shorten(sub))\" is not the expected one")
            }
        }
        if let expected = options.type {
            guard let typ = header.type, normalizeType(typ) == normalizeType(expected) else {
                throw JWTError(code: .typeMismatch, reason: "header typ \"\(JSONNameShortener.shorten(header.type ?? "(none)"))\" is not \"\(expected)\"")
            }
        }
        try options.customCheck?(header, claims)
    }

    private static func normalizeType(_ s: String) -> String {
        let lower = s.lowercased()
        return lower.hasPrefix("application/") ? String(lower.dropFirst(12)) : lower
    }

    private static func leewayNote(_ leeway: Double) -> String {
        leeway > 0 ? ", leeway \(formatSeconds(leeway))" : ""
    }

    static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() && abs(s) < 1e15 ? "\(Int64(s))s" : "\(s)s"
    }
}
