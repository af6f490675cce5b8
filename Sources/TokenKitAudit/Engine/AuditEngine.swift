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
        let count = batch.count
        guard count > 0 else { return [] }
        let slices = count < 64 ? 1 : min(parallelism * 4, count)
        let source = batch.source
        let auditor = auditor
        return batch.bytes.withUnsafeBytes { bytes in
            [AuditRecord](unsafeUninitializedCapacity: count) { output, initialized in
                // Each slice reads the shared (immutable) token bytes and initializes its own
                // disjoint range of `output`; both buffers outlive the synchronous
                // concurrentPerform, so handing them to the workers is race-free.
                let shared = SliceBuffers(input: bytes, output: output)
                let work = { @Sendable (slice: Int) in
                    let lower = count * slice / slices, upper = count * (slice + 1) / slices
                    var scratch = AuditScratch()
                    for index in lower..<upper {
                        let record = Self.audit(batch.entries[index], bytes: shared.input, source: source, auditor: auditor,
                                                scratch: &scratch)
                        (shared.output.baseAddress.map { $0 + index })?.initialize(to: record)
                    }
                }
                if slices == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: slices, execute: work) }
                initialized = count
            }
        }
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
/// range of `output`, within the call that owns both buffers.
private struct SliceBuffers: @unchecked Sendable {
    let input: UnsafeRawBufferPointer
    let output: UnsafeMutableBufferPointer<AuditRecord>
}
