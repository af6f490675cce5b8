import TokenKit
import TokenKitAudit

/// Turns audit records into output bytes, one row (line) per record, streamed: a formatter
/// keeps no state between rows beyond its configuration, so rows are rendered on worker
/// threads.
protocol AuditRowFormatter: Sendable {
    /// Bytes written once before the first row (e.g. a table or CSV header); may be empty.
    func header(into out: inout ByteWriter)
    /// Appends one record's row, ending with `\n`.
    func row(_ record: AuditRecord, into out: inout ByteWriter)
}
