/// Applies ``ValidationOptions`` to a token whose signature has already been checked: the
/// options' claim rules over the payload read by ``RegisteredClaimsView``, then the custom
/// check. Verification's fast and general paths both end here, so they cannot disagree.
enum ClaimValidator {
    /// The verified token, or the first rule's failure (or the payload's JSON error).
    static func verified(header: JWTHeader, payload: [UInt8], options: ValidationOptions) throws(JWTError) -> VerifiedJWT {
        try checkRules(header: header, payload: payload, options: options)
        guard let customCheck = options.customCheck else {
            return VerifiedJWT(header: header, validatedPayload: payload, limits: options.limits)
        }
        let claims = JWTClaims(try JWTPayloadParser.object(payload, limits: options.limits))
        try customCheck(header, claims)
        return VerifiedJWT(header: header, claims: claims, payload: payload)
    }

    /// Checks again, at the options' clock now, a token that passed ``verified(header:payload:options:)``
    /// with the same options earlier (a ``VerifiedTokenCache`` hit): the same claim rules over
    /// its payload, then the custom check. Throws the first failure, as verification would.
    static func recheck(_ token: VerifiedJWT, options: ValidationOptions) throws(JWTError) {
        try checkRules(header: token.header, payload: token.payload, options: options)
        if let customCheck = options.customCheck { try customCheck(token.header, token.claims) }
    }

    /// The options' claim rules over the payload read by ``RegisteredClaimsView``, at the
    /// options' clock now; throws the first failure (or the payload's JSON error).
    private static func checkRules(header: JWTHeader, payload: [UInt8], options: ValidationOptions) throws(JWTError) {
        try payload.withUnsafeBufferPointer { bytes throws(JWTError) in
            let subject: ClaimsUnderTest
            do throws(JSONSyntaxError) {
                subject = ClaimsUnderTest(
                    claims: try RegisteredClaimsView.read(bytes, maxDepth: options.limits.maxDepth, requiredNames: options.requiredClaimNames),
                    headerType: header.type, now: options.clock.now.timeIntervalSince1970)
            } catch {
                throw JWTPayloadParser.malformed(error)
            }
            if let failure = options.firstFailure(in: subject) { throw failure.error }
        }
    }
}

extension ValidationOptions {
    /// The options as claim rules, in the order verification applies them; the first
    /// failure, or `nil` when every rule passes. The custom check is not among them (it
    /// needs the full claims and runs last, see ``ClaimValidator``).
    func firstFailure(in subject: ClaimsUnderTest) -> ClaimFailure? {
        if let failure = RequiredClaimsRule(names: requiredClaimNames).failure(in: subject) { return failure }
        if let failure = NumericDateTypesRule().failure(in: subject) { return failure }
        if let failure = ExpirationRule(leeway: leewaySpan.seconds).failure(in: subject) { return failure }
        if let failure = NotBeforeRule(leeway: leewaySpan.seconds).failure(in: subject) { return failure }
        if rejectIssuedInFuture, let failure = IssuedAtRule(leeway: leewaySpan.seconds).failure(in: subject) { return failure }
        if let maxAgeSpan, let failure = MaxAgeRule(maxAge: maxAgeSpan.seconds, leeway: leewaySpan.seconds).failure(in: subject) { return failure }
        if let issuers, let failure = IssuerRule(accepted: issuers).failure(in: subject) { return failure }
        if let failure = AudienceRule(accepted: audiences).failure(in: subject) { return failure }
        if let expected = self.subject, let failure = SubjectRule(expected: expected).failure(in: subject) { return failure }
        if let type, let failure = TypeRule(expected: type).failure(in: subject) { return failure }
        return nil
    }
}
