import TokenKit
import TokenKitAudit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `tokenkit audit` run: opens the inputs in turn, streams records through the chosen
/// formatter to stdout, shows progress on a terminal, and ends with the summary (table
/// format only).
///
/// Guarantees: every input is checked for readability before anything is written (so an
/// unreadable file fails with exit 2 and no partial report); rows are written in input
/// order as batches complete, never buffered for the whole input; stdout carries only the
/// format's rows (plus the summary for the table). Errors are ``CLIFailure/io(_:)``.
struct AuditSession {
    /// The inputs as given (`-` for stdin).
    let sources: [String]
    /// The output format.
    let format: AuditOutputFormat
    /// The engine driver.
    let runner: AuditRunner
    /// Whether every finding fails the run (wording of the summary only).
    let failOnEverything: Bool
    /// Tokens collected from a credential store (`--store`), audited after the files; their
    /// sources are `store:SERVICE/ACCOUNT`.
    var storeBatches: [AuditBatch] = []

    /// Runs the audit and returns its summary.
    func run() throws -> AuditSummary {
        for source in sources where source != "-" { try Self.checkReadable(source) }
        let output = OutputBuffer(fileDescriptor: 1)
        let progress = AuditProgress(enabled: Terminal.isTTY(2))
        if Terminal.isTTY(1) { output.beforeFlush = { progress.clear() } }
        let formatter = makeFormatter()
        ByteWriter.withScratch { header in
            formatter.header(into: &header)
            header.withBytes { output.append($0) }
        }

        var builder = AuditSummaryBuilder(failOn: runner.engine.auditor.policy.failOn)
        var done = 0
        do {
            var inputs: [() throws -> any AuditInput] = sources.map { source in { try TokenLineReader(path: source) } }
            if !storeBatches.isEmpty { inputs.append { BatchListInput(source: "store", batches: storeBatches) } }
            for open in inputs {
                try runner.audit(try open(), into: &builder, render: { record, chunk in
                    // Each row is built in a stack-first writer (cheap appends) and joins
                    // the worker's chunk in one piece.
                    ByteWriter.withScratch(capacity: 1024) { row in
                        formatter.row(record, into: &row)
                        row.withBytes { chunk.append(contentsOf: $0) }
                    }
                }) { batch in
                    for chunk in batch.rendered { try output.append(chunk: chunk) }
                    done += batch.records.count
                    progress.update(count: done)
                }
            }
        } catch let error as AuditInputError {
            try? output.flush()
            progress.clear()
            throw CLIFailure.io(error.message)
        } catch let error as OutputError {
            progress.clear()
            throw CLIFailure.io(error.message)
        }
        let summary = builder.finish()
        if format == .table {
            output.append("\n" + AuditSummaryFormatter(failOnEverything: failOnEverything).text(summary))
        }
        do { try output.flush() } catch { throw CLIFailure.io(error.message) }
        progress.clear()
        return summary
    }

    private func makeFormatter() -> any AuditRowFormatter {
        switch format {
        case .json: AuditJSONLineFormatter()
        case .csv: AuditCSVFormatter()
        case .table: AuditTableFormatter(sources: sources + storeBatches.map(\.source), colour: Terminal.allowsColour(1))
        }
    }

    /// Checks that `path` exists, is not a directory and is readable, so an unreadable input
    /// fails before any output. Uses stat(2) and access(2) rather than opening the file, so a
    /// FIFO (e.g. `<(command)`) is not opened twice.
    private static func checkReadable(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CLIFailure.io("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw CLIFailure.io("cannot read \(path): Is a directory") }
        guard access(path, R_OK) == 0 else {
            throw CLIFailure.io("cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }
}
