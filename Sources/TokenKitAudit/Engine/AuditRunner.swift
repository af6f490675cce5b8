/// Streams inputs through an ``AuditEngine``: reads a batch, audits it on every core, hands
/// the records to the caller in input order, folds them into a summary, repeats.
///
/// Guarantees: memory is bounded by one batch (plus 8 bytes per token for the lifetime
/// percentiles); records reach `emit` in input order. It does no output of its own: the
/// caller formats and writes what `emit` receives.
public struct AuditRunner: Sendable {
    /// The engine auditing each batch.
    public let engine: AuditEngine
    /// Tokens per batch (default 4096).
    public let batchSize: Int

    /// A runner for `engine`.
    public init(engine: AuditEngine, batchSize: Int = 4096) {
        self.engine = engine
        self.batchSize = max(1, batchSize)
    }

    /// Audits every token of `input`, calling `emit` with each batch's records in order and
    /// adding them to `summary`. Rethrows the input's ``AuditInputError`` or `emit`'s
    /// error, after the batches before it were emitted.
    public func audit(_ input: any AuditInput, into summary: inout AuditSummaryBuilder,
                      emit: ([AuditRecord]) throws -> Void) throws {
        while let batch = try input.nextBatch(maxTokens: batchSize) {
            let records = engine.audit(batch)
            for record in records { summary.add(record) }
            try emit(records)
        }
    }
}
