import Foundation
import TokenKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A reference server running as its own process on 127.0.0.1, started with `--port 0`
/// through the test support's ``ChildProcess`` (posix_spawn, its own process group, output
/// read on threads of its own, exit awaited with waitpid — never Foundation's `Process`).
///
/// ``with(_:_:_:)`` waits (at most 60 s) for the first stdout line, checks that it is exactly
/// `listening on http://127.0.0.1:PORT`, runs the body, and then always stops the server and
/// awaits its exit (SIGTERM; the whole group is killed after 20 s), whether the body returned
/// or threw: no test leaves a server behind or stops one fire-and-forget.
final class ServerProcess: Sendable {
    let running: ChildProcess.Running
    let url: URL
    let port: Int
    let firstLine: String

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    private init(running: ChildProcess.Running, firstLine: String, port: Int, url: URL) {
        self.running = running
        self.firstLine = firstLine
        self.port = port
        self.url = url
    }

    /// Runs `body` with `binary --port 0 ARGS` listening, then stops it (see the type).
    static func with<T: Sendable>(
        _ binary: String, _ arguments: [String] = [], _ body: (ServerProcess) async throws -> T
    ) async throws -> T {
        let server = try await start(binary, arguments)
        let result: T
        do {
            result = try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        return result
    }

    private static func start(_ binary: String, _ arguments: [String]) async throws -> ServerProcess {
        let running = try ChildProcess(
            try BuiltBinary.path(named: binary), ["--port", "0"] + arguments, environment: ["PATH": "/usr/bin:/bin"]
        ).start()
        let printed = try await running.waitForStdout(timeout: .seconds(60)) { $0.contains("\n") }
        let line = printed.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let prefix = "listening on http://127.0.0.1:"
        guard printed.contains("\n"), line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)), port > 0,
              let url = URL(string: "http://127.0.0.1:\(port)")
        else {
            running.signal(SIGKILL)
            let outcome = try? await running.wait(timeout: .seconds(20))
            throw StartFailure(description: "\(binary): unexpected first line \(line.debugDescription); stderr: \(outcome?.stderrText ?? "")")
        }
        return ServerProcess(running: running, firstLine: line, port: port, url: url)
    }

    /// Sends `signal` (SIGTERM by default) and returns the exit status once the server has
    /// exited: -1 when a signal ended it, or when it outlived 20 s (its group is then killed).
    /// Stopping a server that already stopped returns the same status again.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        running.signal(signal)
        guard let outcome = try? await running.wait(timeout: .seconds(20)), outcome.signal == nil else { return -1 }
        return outcome.status
    }
}
