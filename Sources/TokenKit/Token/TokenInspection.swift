internal import TokenKitPrimitives

/// What the audit reads from one token, decoded as strictly as ``UnverifiedJWT`` (package
/// API for TokenKitAudit, which owns the findings; not public because only the audit needs it).
package struct InspectedToken: Sendable {
    /// Header `alg`, as written.
    package var algorithm = ""
    /// Header `kid`.
    package var keyID: String?
    package var issuer: String?
    package var subject: String?
    package var jwtID: String?
    /// `aud` as a list; ``audienceIsArray`` tells whether it was written as an array.
    package var audience: [String]?
    package var audienceIsArray = false
    /// `iat`, `nbf`, `exp` with their literals as written.
    package var issuedAt: JSONNumber?
    package var notBefore: JSONNumber?
    package var expiration: JSONNumber?
    /// The inspection's required claims the token lacks, in the order given.
    package var missingClaims: [String] = []
    /// The core's time rules at the inspection instant with no leeway
    /// (``ExpirationRule``, ``NotBeforeRule``, ``IssuedAtRule``).
    package var expired = false
    package var notYetValid = false
    package var issuedInFuture = false
}

/// Buffers and recently read values that ``TokenInspection`` reuses from token to token: keep
/// one per thread (it is deliberately not `Sendable`). Values are reused only when their
/// bytes are identical, so reuse never changes a result.
package struct InspectionScratch {
    var payload: [UInt8] = []
    var lastIssuer: String?
    var lastAudience: [String] = []
    /// The JSON text `lastAudience` was read from (equal text, equal strings).
    var lastAudienceText: [UInt8] = []

    /// Empty buffers.
    package init() {}
}

/// Why ``TokenInspection`` could not read a token: one line for people, never the token.
package struct InspectionFailure: Error, Sendable {
    package let reason: String

    package init(reason: String) { self.reason = reason }
}

/// Decodes tokens for the audit through the core's one reader and one set of claim rules.
package enum TokenInspection {
    /// Decodes `token` and applies the time and required-claim rules at `now`. Fails with the
    /// error ``UnverifiedJWT`` reports for the same token, or when a registered claim has the
    /// wrong type (the typed ``JWTClaims`` accessors' errors), or when the signature part is
    /// not canonical base64url (a JWS that is not well-formed).
    ///
    /// Throws rather than returning a `Result`: the audit calls this for every token, and
    /// taking the fields out of a `Result` copied and destroyed the whole value through
    /// generic value witnesses each time.
    package static func inspect(_ token: UnsafeRawBufferPointer, limits: ParsingLimits, requiredClaims: [String],
                                now: Double, scratch: inout InspectionScratch) throws(InspectionFailure) -> InspectedToken {
        let bytes = token.assumingMemoryBound(to: UInt8.self)
        guard !bytes.isEmpty, bytes.count <= limits.maxTokenBytes, let (first, second) = TokenSplit.dots(bytes) else {
            throw strictError(bytes, limits: limits)
        }
        let headerText = UnsafeBufferPointer(rebasing: bytes[0..<first])
        let payloadText = UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])
        let signatureText = UnsafeBufferPointer(rebasing: bytes[(second + 1)...])
        let header: JWTHeader
        do throws(JWTError) {
            header = try HeaderCache.shared.header(for: headerText, limits: limits) { () throws(JWTError) in
                try CompactJWS.parseHeader(headerText, limits: limits)
            }
        } catch {
            throw InspectionFailure(reason: error.reason)
        }
        let payloadLength = Base64URL.decodedLength(payloadText.count)
        if scratch.payload.count < payloadLength { scratch.payload = [UInt8](repeating: 0, count: payloadLength) }
        let decoded = scratch.payload.withUnsafeMutableBytes { Base64URL.decode(payloadText, into: $0) }
        guard decoded, isCanonical(signatureText) else { throw strictError(bytes, limits: limits) }

        var result = InspectedToken()
        result.algorithm = header.algorithmName
        result.keyID = header.keyID
        var payloadBuffer: [UInt8] = []
        swap(&payloadBuffer, &scratch.payload)
        defer { swap(&payloadBuffer, &scratch.payload) }
        var failure: InspectionFailure?
        payloadBuffer.withUnsafeBufferPointer { all in
            let payload = UnsafeBufferPointer(rebasing: all[0..<payloadLength])
            let view: RegisteredClaimsView
            do throws(JSONSyntaxError) { view = try RegisteredClaimsView.read(payload, maxDepth: limits.maxDepth, requiredNames: requiredClaims) } catch {
                failure = InspectionFailure(reason: JWTPayloadParser.malformed(error).reason)
                return
            }
            if let typing = typingFailure(view, header: header) {
                failure = InspectionFailure(reason: typing.reason)
                return
            }
            result.read(view, reusing: &scratch)
            let subject = ClaimsUnderTest(claims: view, headerType: header.type, now: now)
            if case .missing(let names)? = RequiredClaimsRule(names: requiredClaims).failure(in: subject)?.detail {
                result.missingClaims = names
            }
            result.expired = ExpirationRule(leeway: 0).failure(in: subject) != nil
            result.notYetValid = NotBeforeRule(leeway: 0).failure(in: subject) != nil
            result.issuedInFuture = IssuedAtRule(leeway: 0).failure(in: subject) != nil
        }
        if let failure { throw failure }
        return result
    }

    /// The first registered claim of the wrong type, in the order the typed accessors are
    /// read (`iss`, `sub`, `jti`, `aud`, `iat`, `nbf`, `exp`).
    private static func typingFailure(_ view: RegisteredClaimsView, header: JWTHeader) -> ClaimFailure? {
        for claim in [RegisteredClaimsView.Claim.iss, .sub, .jti] {
            let kind = view[claim].kind
            if kind != .absent, kind != .string { return ClaimFailure(detail: .notAString(claim: claim.name, found: kind)) }
        }
        let subject = ClaimsUnderTest(claims: view, headerType: header.type, now: 0)
        if let failure = AudienceRule(accepted: nil).failure(in: subject) { return failure }
        return NumericDateTypesRule.failure(of: .iat, in: view) ?? NumericDateTypesRule.failure(of: .nbf, in: view)
            ?? NumericDateTypesRule.failure(of: .exp, in: view)
    }

    /// Whether a part is canonical unpadded base64url (decoding it into a scratch buffer).
    private static func isCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: max(1, Base64URL.decodedLength(text.count)), alignment: 1) {
            Base64URL.decode(text, into: $0)
        }
    }

    /// The reason the strict decoder gives (run only for tokens the fast reading refused).
    private static func strictError(_ bytes: UnsafeBufferPointer<UInt8>, limits: ParsingLimits) -> InspectionFailure {
        do {
            let jwt = try UnverifiedJWT(parsing: String(decoding: bytes, as: UTF8.self), limits: limits)
            // Decoding does not need the signature, but a JWT whose signature part is not
            // canonical base64url is not a well-formed JWS.
            if !jwt.signatureIsWellFormed { return InspectionFailure(reason: "the signature part is not canonical unpadded base64url") }
            return InspectionFailure(reason: "malformed token: the token could not be read")
        } catch {
            return InspectionFailure(reason: error.reason)
        }
    }
}

private extension InspectedToken {
    mutating func read(_ view: RegisteredClaimsView, reusing scratch: inout InspectionScratch) {
        if let text = view.text(view[.iss]) {
            if let last = scratch.lastIssuer, text.equals(last) {
                issuer = last
            } else {
                issuer = text.decoded
                scratch.lastIssuer = issuer
            }
        }
        subject = view.text(view[.sub])?.decoded
        jwtID = view.text(view[.jti])?.decoded
        let aud = view[.aud]
        if let single = view.text(aud) {
            audience = [single.decoded]
        } else if aud.kind == .array {
            audience = Self.audience(aud, in: view, reusing: &scratch.lastAudience, readFrom: &scratch.lastAudienceText)
            audienceIsArray = true
        }
        issuedAt = number(view, .iat)
        notBefore = number(view, .nbf)
        expiration = number(view, .exp)
    }

    /// An `aud` array's strings: the previous token's list when the array is written with the
    /// same bytes (`lastText`), which decode to the same strings; otherwise read anew (and kept
    /// for the next token).
    static func audience(_ aud: RegisteredClaimsView.Value, in view: RegisteredClaimsView, reusing last: inout [String],
                         readFrom lastText: inout [UInt8]) -> [String] {
        let text = view.bytes(of: aud)
        let same = text.count == lastText.count && lastText.withUnsafeBytes { previous in
            previous.baseAddress.map { bytesEqual($0, text.baseAddress, count: text.count) } ?? true
        }
        if same { return last }
        var list: [String] = []
        list.reserveCapacity(Int(aud.elements))
        view.forEachString(in: aud) { list.append($0.decoded) }
        last = list
        lastText = Array(text)
        return list
    }

    func number(_ view: RegisteredClaimsView, _ claim: RegisteredClaimsView.Claim) -> JSONNumber? {
        let value = view[claim]
        guard value.kind == .number else { return nil }
        return JSONNumber(checkedLiteral: view.literal(value), value: view.number(value))
    }
}
