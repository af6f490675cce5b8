#if Hummingbird
import Foundation

/// Prints the start-up lines in their documented order, whichever server is up first:
/// `listening on http://127.0.0.1:PORT` first, then (with `--metrics-port`)
/// `metrics on http://127.0.0.1:PORT/metrics`.
final class ListeningAnnouncer: @unchecked Sendable {
    // @unchecked Sendable: the fields are read and written only under `lock`.
    private let lock = NSLock()
    private var apiPort: Int?
    private var metricsPort: Int?
    private var printedAPI = false
    private var printedMetrics = false

    /// The API server listens on `port`.
    func apiListening(on port: Int) {
        update { $0.apiPort = port }
    }

    /// The metrics server listens on `port`.
    func metricsListening(on port: Int) {
        update { $0.metricsPort = port }
    }

    private func update(_ change: (ListeningAnnouncer) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(self)
        var lines = ""
        if let apiPort, !printedAPI {
            printedAPI = true
            lines += "listening on http://127.0.0.1:\(apiPort)\n"
        }
        if printedAPI, let metricsPort, !printedMetrics {
            printedMetrics = true
            lines += "metrics on http://127.0.0.1:\(metricsPort)/metrics\n"
        }
        if !lines.isEmpty { FileHandle.standardOutput.write(Data(lines.utf8)) }
    }
}
#endif
