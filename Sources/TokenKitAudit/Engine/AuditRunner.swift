import Dispatch

/// Streams inputs through an ``AuditEngine``: while the engine audits up to three batches on
/// every core, the calling thread reads ahead and hands finished batches' records to
/// `emit`, so reading, decoding and output overlap.
///
/// Guarantees: records reach `emit` in input order, on the calling thread; memory is
/// bounded by four batches and the summary's fixed-size state, whatever the input size. It does
/// no output of its own: the caller formats and writes what `emit` receives.
///
/// `audit` blocks the calling thread until the input is exhausted. Call it from a thread of
/// your own (as `tokenkit audit` does), not from a Swift concurrency task or a Dispatch queue:
/// a blocked pool thread counts against the pool's width, so the workers would lose a core.
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
        try audit(input, into: &summary, render: nil) { try emit($0.records) }
    }

    /// Like ``audit(_:into:emit:)``, also rendering each record with `render` on the
    /// worker threads; `emit` receives the records and the rendered rows.
    public func audit(_ input: any AuditInput, into summary: inout AuditSummaryBuilder,
                      render: AuditRowRenderer?, emit: (AuditedBatch) throws -> Void) throws {
        // Keep up to `depth` batches in flight so the workers never wait for the reader or
        // for the calling thread between batches.
        let depth = 3
        var inFlight: [PendingAudit] = []
        var exhausted = false
        var pendingError: (any Error)?
        func refill() {
            while !exhausted, pendingError == nil, inFlight.count < depth {
                do {
                    if let batch = try input.nextBatch(maxTokens: batchSize) {
                        inFlight.append(PendingAudit(engine: engine, batch: batch, render: render))
                    } else {
                        exhausted = true
                    }
                } catch {
                    pendingError = error
                }
            }
        }
        refill()
        while !inFlight.isEmpty {
            let current = inFlight.removeFirst()
            refill()
            try finish(current.records(), into: &summary, emit: emit)
        }
        if let pendingError { throw pendingError }
    }

    private func finish(_ batch: AuditedBatch, into summary: inout AuditSummaryBuilder,
                        emit: (AuditedBatch) throws -> Void) throws {
        for record in batch.records { summary.add(record) }
        try emit(batch)
    }
}

/// One batch being audited in the background.
///
/// `@unchecked Sendable`: `result` is written once by the worker before it signals
/// `done`, and read only after waiting on `done`, so the semaphore orders the accesses.
private final class PendingAudit: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result = AuditedBatch(records: [], rendered: [])

    init(engine: AuditEngine, batch: AuditBatch, render: AuditRowRenderer?) {
        DispatchQueue.global().async { [self] in
            result = engine.audit(batch, render: render)
            done.signal()
        }
    }

    /// Waits for the batch and returns it (call once).
    func records() -> AuditedBatch {
        done.wait()
        return result
    }
}
