import TokenKit
import TokenKitAudit

/// The readable audit table: fixed-width columns so rows can be streamed without knowing
/// the whole input, long values cut with `…`, control characters in claims shown as `?`.
/// Colour (status only) when `colour` is set; alignment is the same either way.
/// Columns: LINE (FILE:LINE for several inputs), REF, STATUS, ALG, ISS, SUB, EXPIRES,
/// REMAINING, LIFETIME, FINDINGS (the last column is not cut: it ends with the reason of a
/// malformed token or a bad signature).
struct AuditTableFormatter: AuditRowFormatter {
    /// Whether to show the input's name in the first column.
    let showsFile: Bool
    /// Width of the first column.
    let locationWidth: Int
    /// Whether to colour statuses with ANSI escapes.
    let colour: Bool

    private static let columns: [(title: String, width: Int, rightAligned: Bool)] = [
        ("REF", 23, false), ("STATUS", 13, false), ("ALG", 6, false), ("ISS", 20, false), ("SUB", 16, false),
        ("EXPIRES", 20, false), ("REMAINING", 9, true), ("LIFETIME", 8, true),
    ]

    /// A table for inputs named `sources`.
    init(sources: [String], colour: Bool) {
        showsFile = sources.count > 1
        let longest = sources.map { DisplayText.sanitized($0, maxCharacters: 40).count }.max() ?? 1
        locationWidth = showsFile ? max(9, longest + 7) : 6
        self.colour = colour
    }

    func header(into out: inout [UInt8]) {
        var cells = [pad(showsFile ? "FILE:LINE" : "LINE", locationWidth, right: !showsFile)]
        for column in Self.columns { cells.append(pad(column.title, column.width, right: column.rightAligned)) }
        cells.append("FINDINGS")
        out.append(contentsOf: cells.joined(separator: "  ").utf8)
        out.append(UInt8(ascii: "\n"))
    }

    func row(_ record: AuditRecord, into out: inout [UInt8]) {
        let location = showsFile ? "\(DisplayText.sanitized(record.source, maxCharacters: 40)):\(record.line)" : String(record.line)
        let expires = record.expiration.map { NumericDateFormatter.string($0.doubleValue) }
        let values: [String?] = [
            record.reference, record.status.rawValue, record.algorithm, record.issuer, record.subject, expires,
            record.remaining.map(HumanDuration.string), record.lifetime.map(HumanDuration.string),
        ]
        var line = pad(location, locationWidth, right: !showsFile)
        for (index, column) in Self.columns.enumerated() {
            line += "  "
            let text = values[index].map { DisplayText.sanitized($0, maxCharacters: column.width) } ?? "-"
            let cell = pad(text, column.width, right: column.rightAligned)
            line += index == 1 ? coloured(cell, record.status) : cell
        }
        line += "  " + findingsText(record)
        out.append(contentsOf: line.utf8)
        out.append(UInt8(ascii: "\n"))
    }

    private func findingsText(_ record: AuditRecord) -> String {
        var text = record.findings.isEmpty ? "-" : record.findings.map(\.rawValue).joined(separator: ",")
        if !record.missingClaims.isEmpty {
            text += " (missing: \(record.missingClaims.map { DisplayText.sanitized($0, maxCharacters: 32) }.joined(separator: ",")))"
        }
        if var problem = record.problem {
            if problem.hasPrefix("malformed token: ") { problem.removeFirst("malformed token: ".count) }
            text += " (\(DisplayText.sanitized(problem, maxCharacters: 160)))"
        }
        return text
    }

    private func pad(_ text: String, _ width: Int, right: Bool) -> String {
        let count = text.count
        guard count < width else { return text }
        let fill = String(repeating: " ", count: width - count)
        return right ? fill + text : text + fill
    }

    private func coloured(_ cell: String, _ status: AuditStatus) -> String {
        guard colour else { return cell }
        let code: String
        switch status {
        case .ok: code = "32"
        case .expired: code = "31"
        case .notYetValid, .noExpiry: code = "33"
        case .malformed: code = "1;31"
        }
        return "\u{1B}[\(code)m\(cell)\u{1B}[0m"
    }
}
