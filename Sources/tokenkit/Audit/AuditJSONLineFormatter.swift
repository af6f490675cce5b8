import TokenKit
import TokenKitAudit

/// `--json`: one JSON object a line, with exactly the contract's keys in the contract's
/// order: line, status, alg, kid, iss, sub, aud, iat, nbf, exp, lifetime, remaining,
/// findings, file. Numbers `iat`/`nbf`/`exp` are written exactly as in the token.
/// Nothing else is added (no reference, no reason), so the line shape never changes.
struct AuditJSONLineFormatter: AuditRowFormatter {
    func header(into out: inout ByteWriter) {}

    func row(_ record: AuditRecord, into out: inout ByteWriter) {
        // Each fixed fragment (punctuation and the next key) is appended in one piece.
        JSONBytes.fixed("{\"line\":", into: &out)
        JSONBytes.integer(record.line, into: &out)
        JSONBytes.fixed(",\"status\":", into: &out)
        JSONBytes.string(record.status.rawValue, into: &out)
        JSONBytes.fixed(",\"alg\":", into: &out)
        JSONBytes.optionalString(record.algorithm, into: &out)
        JSONBytes.fixed(",\"kid\":", into: &out)
        JSONBytes.optionalString(record.keyID, into: &out)
        JSONBytes.fixed(",\"iss\":", into: &out)
        JSONBytes.optionalString(record.issuer, into: &out)
        JSONBytes.fixed(",\"sub\":", into: &out)
        JSONBytes.optionalString(record.subject, into: &out)
        JSONBytes.fixed(",\"aud\":", into: &out)
        switch record.audience {
        case nil: JSONBytes.null(into: &out)
        case .single(let value): JSONBytes.string(value, into: &out)
        case .list(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONBytes.string(value, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        JSONBytes.fixed(",\"iat\":", into: &out)
        number(record.issuedAt?.literal, &out)
        JSONBytes.fixed(",\"nbf\":", into: &out)
        number(record.notBefore?.literal, &out)
        JSONBytes.fixed(",\"exp\":", into: &out)
        number(record.expiration?.literal, &out)
        JSONBytes.fixed(",\"lifetime\":", into: &out)
        JSONBytes.seconds(record.lifetime, into: &out)
        JSONBytes.fixed(",\"remaining\":", into: &out)
        JSONBytes.seconds(record.remaining, into: &out)
        JSONBytes.fixed(",\"findings\":[", into: &out)
        var first = true
        for finding in record.findings {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONBytes.string(finding.rawValue, into: &out)
        }
        JSONBytes.fixed("],\"file\":", into: &out)
        JSONBytes.string(record.source, into: &out)
        JSONBytes.fixed("}\n", into: &out)
    }

    /// A number literal as parsed by TokenKit's strict parser (already valid JSON), or null.
    private func number(_ literal: String?, _ out: inout ByteWriter) {
        if let literal { JSONBytes.raw(literal, into: &out) } else { JSONBytes.null(into: &out) }
    }
}
