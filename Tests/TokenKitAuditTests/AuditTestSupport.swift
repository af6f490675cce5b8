import TokenKit
@testable import TokenKitAudit

/// Audits one token string with `policy`.
func audit(_ token: String, policy: AuditPolicy = AuditPolicy(now: TestTokens.instant), checker: AuditSignatureChecker? = nil) -> AuditRecord {
    var token = token
    return token.withUTF8 { TokenAuditor(policy: policy, signatureChecker: checker).audit(UnsafeRawBufferPointer($0), source: "-", line: 1) }
}

/// The findings' names, in order.
func names(_ findings: AuditFindings) -> [String] { findings.map(\.rawValue) }

/// Audits raw bytes (e.g. invalid UTF-8).
func audit(bytes: [UInt8], policy: AuditPolicy = AuditPolicy(now: TestTokens.instant)) -> AuditRecord {
    bytes.withUnsafeBytes { TokenAuditor(policy: policy).audit($0, source: "f", line: 7) }
}
