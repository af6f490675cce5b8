/// Renders one record (e.g. as an output row) by appending to a byte buffer. Called on
/// worker threads, in input order within a chunk.
public typealias AuditRowRenderer = @Sendable (AuditRecord, inout [UInt8]) -> Void

/// One audited batch: its records and, when a renderer was given, its rendered rows.
public struct AuditedBatch: Sendable {
    /// The records, in input order.
    public let records: [AuditRecord]
    /// The rendered rows in input order, as consecutive chunks (empty without a renderer).
    public let rendered: [[UInt8]]
}
