import Dispatch
import Foundation
import TokenKit

/// Audits batches of tokens on every core, returning records in input order.
///
/// Guarantees: the records of a batch are in the batch's order whatever the parallelism;
/// memory is proportional to one batch, not to the input. Does no I/O.
public struct AuditEngine: Sendable {
    /// The per-token auditor.
    public let auditor: TokenAuditor
    /// How many slices a batch is cut into for parallel work (1 = on the calling thread).
    public let parallelism: Int

    /// An engine using `parallelism` workers (default: the number of active processors).
    public init(auditor: TokenAuditor, parallelism: Int? = nil) {
        self.auditor = auditor
        self.parallelism = max(1, parallelism ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The records of `batch`, in order.
    public func audit(_ batch: AuditBatch) -> [AuditRecord] {
        audit(batch, render: nil).records
    }

    /// The records of `batch`, in order, each also rendered by `render` inside the workers
    /// (so formatting output runs on every core too). `rendered` holds the rows in input
    /// order, split into chunks; it is empty when `render` is `nil`.
    public func audit(_ batch: AuditBatch, render: AuditRowRenderer?) -> AuditedBatch {
        let count = batch.count
        guard count > 0 else { return AuditedBatch(records: [], rendered: []) }
        let slices = count < 64 ? 1 : min(parallelism * 4, count)
        let source = batch.source
        let auditor = auditor
        var rendered = [[UInt8]](repeating: [], count: render == nil ? 0 : slices)
        let records = batch.bytes.withUnsafeBytes { bytes in
            rendered.withUnsafeMutableBufferPointer { chunks in
                [AuditRecord](unsafeUninitializedCapacity: count) { output, initialized in
                    // Each slice reads the shared (immutable) token bytes and initializes its
                    // own disjoint range of `output` and its own chunk; all buffers outlive
                    // the synchronous concurrentPerform, so sharing them is race-free.
                    let shared = SliceBuffers(input: bytes, output: output, chunks: chunks)
                    let work = { @Sendable (slice: Int) in
                        let lower = count * slice / slices, upper = count * (slice + 1) / slices
                        var scratch = AuditScratch()
                        // A private copy of the name: records retain it, and a string shared
                        // by all workers would make its reference count a contended line.
                        let source = String(decoding: Array(source.utf8), as: UTF8.self)
                        var chunk: [UInt8] = []
                        if render != nil { chunk.reserveCapacity((upper - lower) * 320) }
                        for index in lower..<upper {
                            let record = Self.audit(batch.entries[index], bytes: shared.input, source: source,
                                                    auditor: auditor, scratch: &scratch)
                            render?(record, &chunk)
                            (shared.output.baseAddress.map { $0 + index })?.initialize(to: record)
                        }
                        if render != nil { shared.chunks[slice] = chunk }
                    }
                    if slices == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: slices, execute: work) }
                    initialized = count
                }
            }
        }
        return AuditedBatch(records: records, rendered: rendered)
    }

    private static func audit(_ entry: AuditBatch.Entry, bytes: UnsafeRawBufferPointer, source: String,
                              auditor: TokenAuditor, scratch: inout AuditScratch) -> AuditRecord {
        let token = UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + entry.count)])
        if let reason = entry.unreadable {
            var record = AuditRecord(source: source, line: entry.line)
            record.status = .malformed
            record.findings = AuditFindings([.malformed])
            record.problem = reason
            return record
        }
        return auditor.audit(token, source: source, line: entry.line, scratch: &scratch)
    }
}

/// The input and output buffers of one ``AuditEngine/audit(_:)`` call, shared with its
/// workers. `@unchecked Sendable`: workers only read `input` and each writes a disjoint
/// range of `output` and its own element of `chunks`, within the call that owns the buffers.
private struct SliceBuffers: @unchecked Sendable {
    let input: UnsafeRawBufferPointer
    let output: UnsafeMutableBufferPointer<AuditRecord>
    let chunks: UnsafeMutableBufferPointer<[UInt8]>
}
