import TokenKit
import TokenKitAudit

/// `--format csv`: RFC 4180 CSV with a header row. Columns: file, line, reference, status,
/// alg, kid, iss, sub, aud (array members joined by a space), iat, nbf, exp (as in the
/// token), lifetime, remaining (seconds), findings (joined by `;`), problem.
/// Fields are quoted when they contain `,` or `"`. Text from tokens is cleaned first by
/// TokenKit's one cleaner (``UntrustedText``): controls (CR and LF among them), DEL,
/// line separators, bidirectional and invisible format characters become `?`, since CSV has no
/// escape for them and the output may reach a terminal. Never contains the token.
struct AuditCSVFormatter: AuditRowFormatter {
    func header(into out: inout ByteWriter) {
        out.append("file,line,reference,status,alg,kid,iss,sub,aud,iat,nbf,exp,lifetime,remaining,findings,problem\n")
    }

    func row(_ record: AuditRecord, into out: inout ByteWriter) {
        field(record.source, &out); comma(&out)
        JSONBytes.integer(record.line, into: &out); comma(&out)
        field(record.reference, &out); comma(&out)
        field(record.status.rawValue, &out); comma(&out)
        field(record.algorithm, &out); comma(&out)
        field(record.keyID, &out); comma(&out)
        field(record.issuer, &out); comma(&out)
        field(record.subject, &out); comma(&out)
        switch record.audience {
        case nil: break
        case .single(let value): field(value, &out)
        case .list(let values): field(values.count == 1 ? values[0] : values.joined(separator: " "), &out)
        }
        comma(&out)
        field(record.issuedAt?.literal, &out); comma(&out)
        field(record.notBefore?.literal, &out); comma(&out)
        field(record.expiration?.literal, &out); comma(&out)
        if record.lifetime != nil { JSONBytes.seconds(record.lifetime, into: &out) }
        comma(&out)
        if record.remaining != nil { JSONBytes.seconds(record.remaining, into: &out) }
        comma(&out)
        var first = true
        for finding in record.findings {
            if !first { out.append(UInt8(ascii: ";")) }
            first = false
            out.append(utf8Of: finding.rawValue)  // kebab-case names: never need quoting
        }
        comma(&out)
        field(record.problem, &out)
        out.append(UInt8(ascii: "\n"))
    }

    private func comma(_ out: inout ByteWriter) { out.append(UInt8(ascii: ",")) }

    /// Appends a field, cleaned, quoted (with `"` doubled) when needed; nothing for `nil`.
    private func field(_ value: String?, _ out: inout ByteWriter) {
        guard var value else { return }
        if value.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { value = UntrustedText.sanitized(value) }
        let needsQuotes = value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return out.append(utf8Of: value) }
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}
