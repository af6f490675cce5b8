import TokenKitAudit

/// `--json`: one JSON object a line, with exactly the contract's keys in the contract's
/// order: line, status, alg, kid, iss, sub, aud, iat, nbf, exp, lifetime, remaining,
/// findings, file. Numbers `iat`/`nbf`/`exp` are written exactly as in the token.
/// Nothing else is added (no reference, no reason), so the line shape never changes.
struct AuditJSONLineFormatter: AuditRowFormatter {
    func header(into out: inout [UInt8]) {}

    func row(_ record: AuditRecord, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        JSONBytes.key("line", into: &out)
        JSONBytes.integer(record.line, into: &out)
        comma(&out); JSONBytes.key("status", into: &out)
        JSONBytes.string(record.status.rawValue, into: &out)
        comma(&out); JSONBytes.key("alg", into: &out)
        JSONBytes.optionalString(record.algorithm, into: &out)
        comma(&out); JSONBytes.key("kid", into: &out)
        JSONBytes.optionalString(record.keyID, into: &out)
        comma(&out); JSONBytes.key("iss", into: &out)
        JSONBytes.optionalString(record.issuer, into: &out)
        comma(&out); JSONBytes.key("sub", into: &out)
        JSONBytes.optionalString(record.subject, into: &out)
        comma(&out); JSONBytes.key("aud", into: &out)
        switch record.audience {
        case nil: JSONBytes.null(into: &out)
        case .single(let value): JSONBytes.string(value, into: &out)
        case .list(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { comma(&out) }
                JSONBytes.string(value, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        comma(&out); JSONBytes.key("iat", into: &out)
        number(record.issuedAt?.literal, &out)
        comma(&out); JSONBytes.key("nbf", into: &out)
        number(record.notBefore?.literal, &out)
        comma(&out); JSONBytes.key("exp", into: &out)
        number(record.expiration?.literal, &out)
        comma(&out); JSONBytes.key("lifetime", into: &out)
        JSONBytes.seconds(record.lifetime, into: &out)
        comma(&out); JSONBytes.key("remaining", into: &out)
        JSONBytes.seconds(record.remaining, into: &out)
        comma(&out); JSONBytes.key("findings", into: &out)
        out.append(UInt8(ascii: "["))
        var first = true
        for finding in record.findings {
            if !first { comma(&out) }
            first = false
            JSONBytes.string(finding.rawValue, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        comma(&out); JSONBytes.key("file", into: &out)
        JSONBytes.string(record.source, into: &out)
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    private func comma(_ out: inout [UInt8]) { out.append(UInt8(ascii: ",")) }

    /// A number literal as parsed by TokenKit's strict parser (already valid JSON), or null.
    private func number(_ literal: String?, _ out: inout [UInt8]) {
        if let literal { JSONBytes.raw(literal, into: &out) } else { JSONBytes.null(into: &out) }
    }
}
