import Foundation
import Hummingbird
import Logging
import NIOCore

/// Runs a reference server the way the apps' CLI contract says.
///
/// Guarantees: listens on 127.0.0.1 only; the first line on stdout is exactly
/// `listening on http://127.0.0.1:PORT` (the real port, also with `--port 0`), flushed at
/// once; SIGTERM and SIGINT shut it down gracefully and ``run(router:port:name:)`` returns
/// (the caller then exits 0). Logs go to stderr at `warning` and above.
public enum ServerRunner {
    /// Serves `router` on 127.0.0.1:`port` until SIGTERM or SIGINT.
    public static func run(router: Router<AppRequestContext>, port: Int, name: String) async throws {
        var logger = Logger(label: name)
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: name),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(bound)\n".utf8))
            },
            logger: logger)
        try await app.runService()
    }
}
