import TokenKit

/// Audits one token at a time against an ``AuditPolicy``: the pure, per-token core of the
/// audit engine.
///
/// Guarantees: total (every input yields a record, never an error or a crash); decoding is
/// TokenKit's strict decoding (``UnverifiedJWT``), so a token is reported malformed exactly
/// when TokenKit would refuse to parse it, or when a registered claim has the wrong type.
/// Signatures are checked only when a ``AuditSignatureChecker`` is given. Thread-safe.
public struct TokenAuditor: Sendable {
    /// The policy tokens are judged by.
    public let policy: AuditPolicy
    /// Checks signatures when set.
    public let signatureChecker: AuditSignatureChecker?

    /// An auditor for `policy`, optionally checking signatures.
    public init(policy: AuditPolicy, signatureChecker: AuditSignatureChecker? = nil) {
        self.policy = policy
        self.signatureChecker = signatureChecker
        requiredClaimBytes = policy.requiredClaims.map { Array($0.utf8) }
    }

    /// ``AuditPolicy/requiredClaims`` as bytes, for the scanner.
    private let requiredClaimBytes: [[UInt8]]

    /// Audits `token` (one line's bytes, without line terminator).
    public func audit(_ token: UnsafeRawBufferPointer, source: String, line: Int) -> AuditRecord {
        var scratch = AuditScratch()
        return audit(token, source: source, line: line, scratch: &scratch)
    }

    /// Audits `token`, reusing `scratch` (one per thread) to avoid allocations. Decodes with
    /// ``JWTQuickScanner`` and falls back to ``UnverifiedJWT`` whenever the scanner declines,
    /// so the result is the same as with the strict decoder alone.
    public func audit(_ token: UnsafeRawBufferPointer, source: String, line: Int,
                      scratch: inout AuditScratch) -> AuditRecord {
        var record = AuditRecord(source: source, line: line)
        let decoded: DecodedToken
        if let scanned = JWTQuickScanner.scan(token, limits: policy.limits, claimNames: requiredClaimBytes, scratch: &scratch.scanner) {
            decoded = DecodedToken(scanned, requiredClaims: policy.requiredClaims)
        } else {
            // The scanner accepts only base64url text, so non-ASCII lines always land here.
            if let nonASCII = token.firstIndex(where: { $0 >= 0x80 }) {
                return malformed(record, token, scratch: &scratch, "the line has a non-ASCII byte at offset \(nonASCII) (a JWT is base64url text)")
            }
            do {
                let jwt = try UnverifiedJWT(parsing: String(decoding: token, as: UTF8.self), limits: policy.limits)
                // Decoding does not need the signature, but a JWT whose signature part is not
                // canonical base64url is not a well-formed JWS: the audit reports it.
                guard jwt.signatureIsWellFormed else {
                    return malformed(record, token, scratch: &scratch, "the signature part is not canonical unpadded base64url")
                }
                decoded = try DecodedToken(jwt, requiredClaims: policy.requiredClaims)
            } catch {
                return malformed(record, token, scratch: &scratch, error.reason)
            }
        }
        record.algorithm = decoded.algorithm
        record.keyID = decoded.keyID
        record.issuer = decoded.issuer
        record.subject = decoded.subject
        record.audience = decoded.audience
        record.issuedAt = decoded.issuedAt
        record.notBefore = decoded.notBefore
        record.expiration = decoded.expiration
        record.missingClaims = decoded.missingClaims
        if policy.computeReferences {
            record.reference = TokenReference.make(jti: decoded.jwtID, token: token, scratch: &scratch)
        }
        evaluate(&record)
        if let signatureChecker, let failure = signatureChecker.failure(for: String(decoding: token, as: UTF8.self)) {
            record.findings.insert(.badSignature)
            record.problem = failure
        }
        return record
    }

    /// Fills in times, findings and status of a decoded token.
    private func evaluate(_ record: inout AuditRecord) {
        let now = policy.now
        let exp = record.expiration?.doubleValue
        let iat = record.issuedAt?.doubleValue
        let nbf = record.notBefore?.doubleValue
        if let exp, let iat { record.lifetime = exp - iat }
        if let exp { record.remaining = exp - now }

        var findings = AuditFindings()
        if Self.isNone(record.algorithm) { findings.insert(.algNone) }
        if exp == nil { findings.insert(.noExp) }
        if iat == nil { findings.insert(.noIat) }
        if let max = policy.maxLifetime, let lifetime = record.lifetime, lifetime > Double(max) {
            findings.insert(.lifetimeExceedsMax)
        }
        if let exp, exp <= now { findings.insert(.expired) }
        if let nbf, nbf > now { findings.insert(.notYetValid) }
        if let iat, iat > now { findings.insert(.iatInFuture) }
        if let window = policy.warnWithin, let exp, exp > now, exp - now <= Double(window) {
            findings.insert(.expiresSoon)
        }
        if !record.missingClaims.isEmpty { findings.insert(.missingClaim) }
        if let allowed = policy.allowedAlgorithms,
           !allowed.contains(where: { $0.utf8.elementsEqual((record.algorithm ?? "").utf8) }) {  // bytes, not String ==
            findings.insert(.algorithmNotAllowed)
        }
        record.findings = findings

        if findings.contains(.expired) {
            record.status = .expired
        } else if findings.contains(.notYetValid) {
            record.status = .notYetValid
        } else if exp == nil {
            record.status = .noExpiry
        } else {
            record.status = .ok
        }
    }

    private func malformed(_ record: AuditRecord, _ token: UnsafeRawBufferPointer, scratch: inout AuditScratch,
                           _ reason: String) -> AuditRecord {
        var record = record
        record.status = .malformed
        record.findings = AuditFindings([.malformed])
        record.problem = reason
        if policy.computeReferences { record.reference = TokenReference.hashed(token, scratch: &scratch) }
        return record
    }

    /// `alg` equal to `none` ignoring ASCII case.
    static func isNone(_ algorithm: String?) -> Bool {
        guard let algorithm, algorithm.utf8.count == 4 else { return false }
        return algorithm.lowercased() == "none"
    }
}

/// What the audit reads from a token: header fields, registered claims and which required
/// claims are missing, from either decoder.
struct DecodedToken {
    let algorithm: String
    let keyID: String?
    let issuer: String?
    let subject: String?
    let jwtID: String?
    let audience: AuditAudience?
    let issuedAt: JSONNumber?
    let notBefore: JSONNumber?
    let expiration: JSONNumber?
    let missingClaims: [String]

    /// From the fast scanner (which already applied the typed accessors' rules).
    init(_ scanned: ScannedJWT, requiredClaims: [String]) {
        algorithm = scanned.algorithmName
        keyID = scanned.keyID
        issuer = scanned.issuer
        subject = scanned.subject
        jwtID = scanned.jwtID
        if let list = scanned.audience {
            audience = scanned.audienceIsArray ? .list(list) : list.first.map { .single($0) }
        } else {
            audience = nil
        }
        issuedAt = scanned.issuedAt
        notBefore = scanned.notBefore
        expiration = scanned.expiration
        missingClaims = requiredClaims.enumerated().filter { scanned.presentClaims & (1 << UInt64($0.offset)) == 0 }.map(\.element)
    }

    /// From the strict decoder, with TokenKit's typed accessors (so a claim of the wrong
    /// type throws and the token is malformed rather than the claim silently absent).
    init(_ jwt: UnverifiedJWT, requiredClaims: [String]) throws(JWTError) {
        let claims = jwt.claims
        algorithm = jwt.header.algorithmName
        keyID = jwt.header.keyID
        issuer = try claims.issuer()
        subject = try claims.subject()
        jwtID = try claims.jwtID()
        let list = try claims.audience()
        if let single = claims["aud"]?.stringValue {
            audience = .single(single)
        } else {
            audience = list.map { .list($0) }
        }
        _ = try claims.issuedAt()
        _ = try claims.notBefore()
        _ = try claims.expiration()
        issuedAt = claims["iat"]?.numberValue
        notBefore = claims["nbf"]?.numberValue
        expiration = claims["exp"]?.numberValue
        missingClaims = requiredClaims.filter { claims[$0] == nil }
    }
}
