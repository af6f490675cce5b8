import TokenKit
import TokenKitAudit

/// The readable audit table: fixed-width columns so rows can be streamed without knowing
/// the whole input, long values cut with `…`, control characters in claims shown as `?`.
/// Colour (status only) when `colour` is set; alignment is the same either way.
/// Columns: LINE (FILE:LINE for several inputs), REF, STATUS, ALG, ISS, SUB, EXPIRES,
/// REMAINING, LIFETIME, FINDINGS (the last column is not cut: it ends with the reason of a
/// malformed token or a bad signature). Never shows the token itself.
struct AuditTableFormatter: AuditRowFormatter {
    /// Whether to show the input's name in the first column.
    let showsFile: Bool
    /// Width of the first column.
    let locationWidth: Int
    /// Whether to colour statuses with ANSI escapes.
    let colour: Bool

    private enum Width {
        static let reference = 23, status = 13, alg = 6, iss = 20, sub = 16, expires = 20, remaining = 9, lifetime = 8
    }

    /// A table for inputs named `sources`.
    init(sources: [String], colour: Bool) {
        showsFile = sources.count > 1 || sources.contains { $0.hasPrefix("store:") }
        let longest = sources.map { DisplayText.sanitized($0, maxCharacters: 40).count }.max() ?? 1
        locationWidth = showsFile ? max(9, longest + 7) : 6
        self.colour = colour
    }

    func header(into out: inout ByteWriter) {
        TableCell.text(showsFile ? "FILE:LINE" : "LINE", width: locationWidth, right: !showsFile, into: &out)
        for (title, width, right) in [("REF", Width.reference, false), ("STATUS", Width.status, false), ("ALG", Width.alg, false),
                                      ("ISS", Width.iss, false), ("SUB", Width.sub, false), ("EXPIRES", Width.expires, false),
                                      ("REMAINING", Width.remaining, true), ("LIFETIME", Width.lifetime, true)] {
            TableCell.gap(&out)
            TableCell.text(title, width: width, right: right, into: &out)
        }
        TableCell.gap(&out)
        out.append("FINDINGS\n")
    }

    func row(_ record: AuditRecord, into out: inout ByteWriter) {
        if showsFile {
            TableCell.text("\(DisplayText.sanitized(record.source, maxCharacters: 40)):\(record.line)", width: locationWidth, right: false, into: &out)
        } else {
            TableCell.bytes(width: locationWidth, right: true, into: &out) { JSONBytes.integer(record.line, into: &$0) }
        }
        TableCell.gap(&out)
        TableCell.text(record.reference, width: Width.reference, right: false, into: &out)
        TableCell.gap(&out)
        if colour { out.append(utf8Of: Self.colourCode(record.status)) }
        TableCell.text(record.status.rawValue, width: Width.status, right: false, into: &out)
        if colour { out.append("\u{1B}[0m") }
        TableCell.gap(&out)
        TableCell.text(record.algorithm, width: Width.alg, right: false, into: &out)
        TableCell.gap(&out)
        TableCell.text(record.issuer, width: Width.iss, right: false, into: &out)
        TableCell.gap(&out)
        TableCell.text(record.subject, width: Width.sub, right: false, into: &out)
        TableCell.gap(&out)
        if let exp = record.expiration?.doubleValue {
            TableCell.bytes(width: Width.expires, right: false, into: &out) { TimestampBytes.append(exp, into: &$0) }
        } else {
            TableCell.text(nil, width: Width.expires, right: false, into: &out)
        }
        appendDuration(record.remaining, width: Width.remaining, into: &out)
        appendDuration(record.lifetime, width: Width.lifetime, into: &out)
        TableCell.gap(&out)
        appendFindings(record, into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    private func appendDuration(_ value: Double?, width: Int, into out: inout ByteWriter) {
        TableCell.gap(&out)
        if let value {
            TableCell.bytes(width: width, right: true, into: &out) { HumanDuration.append(value, into: &$0) }
        } else {
            TableCell.text(nil, width: width, right: true, into: &out)
        }
    }

    private func appendFindings(_ record: AuditRecord, into out: inout ByteWriter) {
        if record.findings.isEmpty {
            out.append(UInt8(ascii: "-"))
        } else {
            var first = true
            for finding in record.findings {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.append(utf8Of: finding.rawValue)
            }
        }
        if !record.missingClaims.isEmpty {
            let names = record.missingClaims.map { DisplayText.sanitized($0, maxCharacters: 32) }.joined(separator: ",")
            out.append(utf8Of: " (missing: \(names))")
        }
        if var problem = record.problem {
            if problem.hasPrefix("malformed token: ") { problem.removeFirst("malformed token: ".count) }
            out.append(utf8Of: " (\(DisplayText.sanitized(problem, maxCharacters: 160)))")
        }
    }

    private static func colourCode(_ status: AuditStatus) -> String {
        switch status {
        case .ok: "\u{1B}[32m"
        case .expired: "\u{1B}[31m"
        case .notYetValid, .noExpiry: "\u{1B}[33m"
        case .malformed: "\u{1B}[1;31m"
        }
    }
}

/// Fixed-width table cells written as bytes.
enum TableCell {
    /// Two spaces between columns.
    static func gap(_ out: inout ByteWriter) { out.append("  ") }

    /// `text` (or `-` when `nil`) cut to `width` columns with `…` and padded to `width`.
    /// Control characters become `?`. Plain ASCII takes a byte-level path.
    static func text(_ text: String?, width: Int, right: Bool, into out: inout ByteWriter) {
        guard var text else { return pad("-".utf8.count, width: width, right: right, into: &out) { $0.append(UInt8(ascii: "-")) } }
        let done: Bool = text.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return false }
            if utf8.count > width {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<(width - 1)]))
                out.append("…")
            } else {
                pad(utf8.count, width: width, right: right, into: &out) { $0.append(contentsOf: utf8) }
            }
            return true
        }
        guard !done else { return }
        let clean = DisplayText.sanitized(text, maxCharacters: width)
        pad(clean.count, width: width, right: right, into: &out) { $0.append(utf8Of: clean) }
    }

    /// Cell content produced by `write` (ASCII is assumed: one byte a column), padded.
    static func bytes(width: Int, right: Bool, into out: inout ByteWriter, _ write: (inout ByteWriter) -> Void) {
        let start = out.count
        write(&out)
        let fill = max(0, width - (out.count - start))
        if right {
            out.insert(repeating: 0x20, count: fill, at: start)
        } else {
            out.append(repeating: 0x20, count: fill)
        }
    }

    private static func pad(_ count: Int, width: Int, right: Bool, into out: inout ByteWriter, _ write: (inout ByteWriter) -> Void) {
        let fill = max(0, width - count)
        if right { out.append(repeating: 0x20, count: fill) }
        write(&out)
        if !right { out.append(repeating: 0x20, count: fill) }
    }
}
