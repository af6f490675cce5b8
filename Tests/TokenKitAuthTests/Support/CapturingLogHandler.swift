#if Hummingbird && Postgres
import Foundation
import Logging

/// Collects every log line (message and metadata, rendered as text) for inspection.
final class LogCapture: @unchecked Sendable {
    // @unchecked: `lines` is read and written only while `mutex` is held.
    private let mutex = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        mutex.lock()
        lines.append(line)
        mutex.unlock()
    }

    var all: [String] {
        mutex.lock()
        defer { mutex.unlock() }
        return lines
    }

    /// A logger at `.trace` that writes into this capture.
    func logger() -> Logger {
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }
}

/// A `LogHandler` that renders each event into a ``LogCapture``.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        capture.append("\(event.level) \(event.message) \(merged)")
    }
}
#endif
