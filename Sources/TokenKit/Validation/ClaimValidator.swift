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
            guard issuers.containsByteIdentical(iss) else {
                throw JWTError(code: .issuerMismatch, reason: "issuer \"\(JSONNameShortener.shorten(iss))\" is not accepted")
            }
        }
        if let audiences = options.audiences {
            guard let aud = try claims.audience() else { throw JWTError(code: .audienceMismatch, reason: "token has no audience (aud)") }
            guard aud.contains(where: { audiences.containsByteIdentical($0) }) else {
                let shown = aud.prefix(3).map { "\"\(JSONNameShortener.shorten($0))\"" }.joined(separator: ", ")
                throw JWTError(code: .audienceMismatch, reason: "audience mismatch: token is for \(shown)\(aud.count > 3 ? ", …" : "")")
            }
        } else {
            _ = try claims.audience()  // still refuse a malformed aud
        }
        if let subject = options.subject {
            guard let sub = try claims.subject() else { throw JWTError(code: .subjectMismatch, reason: "token has no subject (sub)") }
            guard sub.isByteIdentical(to: subject) else {
                throw JWTError(code: .subjectMismatch, reason: "subject \"\(JSONNameShortener.shorten(sub))\" is not the expected one")
            }
        }
        if let expected = options.type {
            guard let typ = header.type, normalizeType(typ).isByteIdentical(to: normalizeType(expected)) else {
                throw JWTError(code: .typeMismatch, reason: "header typ \"\(JSONNameShortener.shorten(header.type ?? "(none)"))\" is not \"\(expected)\"")
            }
        }
        try options.customCheck?(header, claims)
    }

    /// `typ` for comparison: ASCII letters lowercased (only those: RFC 2045 media types),
    /// an `application/` prefix removed (RFC 7515 §4.1.9).
    static func normalizeType(_ s: String) -> String {
        let lower = s.asciiLowercased
        return lower.hasPrefix("application/") ? String(lower.dropFirst(12)) : lower
    }

    private static func leewayNote(_ leeway: Double) -> String {
        leeway > 0 ? ", leeway \(formatSeconds(leeway))" : ""
    }

    static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() && abs(s) < 1e15 ? "\(Int64(s))s" : "\(s)s"
    }
}

extension ClaimValidator {
    /// The fast form of ``validate(header:claims:options:)`` over a ``ClaimsScanner`` result:
    /// `true` when every check passes. `false` means "not certain": the caller runs the full
    /// validation, which reports the exact reason (so this never decides a refusal itself).
    /// `customCheck` is not run here: callers with one take the full path.
    static func passes(_ scan: ClaimsScanner, header: JWTHeader, options: ValidationOptions) -> Bool {
        for name in options.requiredClaims where !scan.hasMember(name) { return false }
        // A NumericDate that is present must be a finite number below 1e15 (see JWTClaims).
        func date(_ value: ClaimsScanner.Value) -> (ok: Bool, value: Double?) {
            switch value.kind {
            case .absent: return (true, nil)
            case .number:
                let d = scan.number(value)
                return d.isFinite && abs(d) < 1e15 ? (true, d) : (false, nil)
            default: return (false, nil)
            }
        }
        let (expOK, exp) = date(scan.exp), (nbfOK, nbf) = date(scan.nbf), (iatOK, iat) = date(scan.iat)
        guard expOK, nbfOK, iatOK else { return false }
        let now = options.clock.now()
        let leeway = options.leeway
        if let exp, now >= exp + leeway { return false }
        if let nbf, now + leeway < nbf { return false }
        if let iat, options.rejectIssuedInFuture, iat > now + leeway { return false }
        if let maxAge = options.maxAge {
            guard let iat, now - iat <= maxAge + leeway else { return false }
        }
        if scan.iss.kind != .absent && scan.iss.kind != .string { return false }
        if scan.sub.kind != .absent && scan.sub.kind != .string { return false }
        if let issuers = options.issuers {
            guard scan.iss.kind == .string, issuers.contains(where: { scan.stringEquals(scan.iss, $0) }) else { return false }
        }
        switch scan.aud.kind {
        case .absent:
            if options.audiences != nil { return false }
        case .string:
            if let audiences = options.audiences, !audiences.contains(where: { scan.stringEquals(scan.aud, $0) }) { return false }
        case .array:
            var matched = false, elements = 0
            let audiences = options.audiences
            let allStrings = scan.forEachString(inArray: scan.aud) { start, end in
                elements += 1
                guard !matched, let audiences else { return }
                let element = ClaimsScanner.Value(kind: .string, start: start, end: end)
                if audiences.contains(where: { scan.stringEquals(element, $0) }) { matched = true }
            }
            // An empty aud array is refused (see JWTClaims.audience()).
            guard allStrings, elements > 0, audiences == nil || matched else { return false }
        default:
            return false
        }
        if let subject = options.subject, !scan.stringEquals(scan.sub, subject) { return false }
        if let expected = options.type {
            guard let typ = header.type, normalizeType(typ).isByteIdentical(to: normalizeType(expected)) else { return false }
        }
        return true
    }
}
