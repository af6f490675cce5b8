/// An ``AuditInput`` over batches already in memory (e.g. from ``StoreTokenCollector``).
public final class BatchListInput: AuditInput {
    /// A name for the whole list, e.g. `store`.
    public let source: String
    private var remaining: ArraySlice<AuditBatch>

    /// An input returning `batches` in order (each at most once, whatever `maxTokens`).
    public init(source: String, batches: [AuditBatch]) {
        self.source = source
        remaining = batches[...]
    }

    /// The next stored batch, or `nil` when all were returned.
    public func nextBatch(maxTokens: Int) throws(AuditInputError) -> AuditBatch? {
        remaining.popFirst()
    }
}
