import TokenKit
internal import TokenKitPrimitives

/// Audits one token at a time against an ``AuditPolicy``: the pure, per-token core of the
/// audit engine.
///
/// Guarantees: total (every input yields a record, never an error or a crash); decoding is
/// TokenKit's strict decoding (the reader behind ``UnverifiedJWT``), so a token is reported
/// malformed exactly when TokenKit would refuse to parse it, when a registered claim has the
/// wrong type, or when its signature part is not canonical base64url.
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
    }

    /// Audits `token` (one line's bytes, without line terminator).
    public func audit(_ token: UnsafeRawBufferPointer, source: String, line: Int) -> AuditRecord {
        var scratch = AuditScratch()
        return audit(token, source: source, line: line, scratch: &scratch)
    }

    /// Audits `token`, reusing `scratch` (one per thread) to avoid allocations. Decoding and
    /// the time and required-claim checks are TokenKit's own (its one JSON reader and claim
    /// rules, see `TokenInspection`), so a token is malformed exactly when TokenKit would
    /// refuse to decode it, and `expired` means what verification's `exp` rule means.
    public func audit(_ token: UnsafeRawBufferPointer, source: String, line: Int,
                      scratch: inout AuditScratch) -> AuditRecord {
        var record = AuditRecord(source: source, line: line)
        let inspected: InspectedToken
        do throws(InspectionFailure) {
            inspected = try TokenInspection.inspect(token, limits: policy.limits, requiredClaims: policy.requiredClaims,
                                                    now: policy.nowSeconds, scratch: &scratch.inspection)
        } catch {
            if let nonASCII = token.firstIndex(where: { $0 >= 0x80 }) {
                return malformed(record, token, scratch: &scratch, "the line has a non-ASCII byte at offset \(nonASCII) (a JWT is base64url text)")
            }
            return malformed(record, token, scratch: &scratch, error.reason)
        }
        record.algorithm = inspected.algorithm
        record.keyID = inspected.keyID
        record.issuer = inspected.issuer
        record.subject = inspected.subject
        if let list = inspected.audience {
            record.audience = inspected.audienceIsArray ? .list(list) : list.first.map { .single($0) }
        }
        record.issuedAt = inspected.issuedAt
        record.notBefore = inspected.notBefore
        record.expiration = inspected.expiration
        record.missingClaims = inspected.missingClaims
        if policy.computeReferences {
            record.reference = TokenReference.make(jti: inspected.jwtID, token: token, scratch: &scratch)
        }
        evaluate(&record, inspected)
        if let signatureChecker, let failure = signatureChecker.failure(for: String(decoding: token, as: UTF8.self)) {
            record.findings.insert(.badSignature)
            record.problem = failure
        }
        return record
    }

    /// Fills in times, findings and status of a decoded token. `expired`, `not-yet-valid`,
    /// `iat-in-future` and `missing-claim` are the core rules' verdicts; the rest are the
    /// audit's own policies.
    private func evaluate(_ record: inout AuditRecord, _ inspected: InspectedToken) {
        let now = policy.nowSeconds
        let exp = record.expiration?.doubleValue
        let iat = record.issuedAt?.doubleValue
        if let exp, let iat { record.lifetime = exp - iat }
        if let exp { record.remaining = exp - now }

        var findings = AuditFindings()
        if Self.isNone(record.algorithm) { findings.insert(.algNone) }
        if exp == nil { findings.insert(.noExp) }
        if iat == nil { findings.insert(.noIat) }
        if let max = policy.maxLifetimeSpan?.seconds, let lifetime = record.lifetime, lifetime > max {
            findings.insert(.lifetimeExceedsMax)
        }
        if inspected.expired { findings.insert(.expired) }
        if inspected.notYetValid { findings.insert(.notYetValid) }
        if inspected.issuedInFuture { findings.insert(.iatInFuture) }
        if let window = policy.warnWithinSpan?.seconds, let exp, exp > now, exp - now <= window {
            findings.insert(.expiresSoon)
        }
        if !record.missingClaims.isEmpty { findings.insert(.missingClaim) }
        if let allowed = policy.allowedAlgorithms, !allowed.contains(record.algorithm ?? "") {  // bytes, not String ==
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

    /// `alg` equal to `none` ignoring ASCII case (only ASCII: no other character folds).
    static func isNone(_ algorithm: String?) -> Bool {
        guard let algorithm, algorithm.utf8.count == 4 else { return false }
        return algorithm.asciiLowercased.isByteIdentical(to: "none")
    }
}
