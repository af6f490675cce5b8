import Foundation

/// A reference server running as its own process on 127.0.0.1, started with `--port 0`.
///
/// ``start(_:_:)`` waits (at most 60 s) for the first stdout line, checks that it is exactly
/// `listening on http://127.0.0.1:PORT`, and returns; ``stop()`` sends SIGTERM and waits
/// (at most 20 s, then SIGKILL) for the exit status.
final class ServerProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is only started and signalled; `lines` is lock-protected.
    let process: Process
    let url: URL
    let port: Int
    let firstLine: String
    private let stderrBox: DataBox

    private init(process: Process, firstLine: String, port: Int, stderrBox: DataBox) {
        self.process = process
        self.firstLine = firstLine
        self.port = port
        self.url = URL(string: "http://127.0.0.1:\(port)")!
        self.stderrBox = stderrBox
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `binary --port 0 ARGS`.
    static func start(_ binary: String, _ arguments: [String] = []) async throws -> ServerProcess {
        let path = try Binaries.path(binary)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try startBlocking(path, ["--port", "0"] + arguments) })
            }
        }
    }

    private static func startBlocking(_ path: String, _ arguments: [String]) throws -> ServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderrBox = DataBox()
        let errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async { stderrBox.set(PipeIO.readAll(errorHandle)) }
        // Read the first line on a thread of its own, with a deadline.
        let lineBox = DataBox()
        let gotLine = DispatchSemaphore(value: 0)
        let outHandle = output.fileHandleForReading
        Thread.detachNewThread {
            var line = Data()
            var byte: UInt8 = 0
            let fd = outHandle.fileDescriptor
            while true {
                let n = read(fd, &byte, 1)
                if n == 1 {
                    if byte == UInt8(ascii: "\n") { break }
                    line.append(byte)
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            lineBox.set(line)
            gotLine.signal()
            _ = PipeIO.readAll(outHandle)  // keep draining
        }
        if gotLine.wait(timeout: .now() + 60) == .timedOut {
            process.terminate()
            throw StartFailure(description: "\(path) printed no line within 60 s")
        }
        let line = String(decoding: lineBox.get(), as: UTF8.self)
        let prefix = "listening on http://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)), port > 0 else {
            process.terminate()
            process.waitUntilExit()
            throw StartFailure(description: "unexpected first line \(line.debugDescription); stderr: \(String(decoding: stderrBox.get(), as: UTF8.self))")
        }
        return ServerProcess(process: process, firstLine: line, port: port, stderrBox: stderrBox)
    }

    /// Sends `signal` (SIGTERM by default) and returns the exit status (SIGKILL after 20 s: then -1).
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        let process = self.process
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                guard process.isRunning else {
                    continuation.resume(returning: process.terminationStatus)
                    return
                }
                kill(process.processIdentifier, signal)
                let deadline = Date().addingTimeInterval(20)
                while process.isRunning && Date() < deadline { usleep(20_000) }
                if process.isRunning {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    continuation.resume(returning: -1)
                    return
                }
                process.waitUntilExit()
                continuation.resume(returning: process.terminationReason == .exit ? process.terminationStatus : -1)
            }
        }
    }

    /// What the server wrote to stderr so far.
    var stderr: String { String(decoding: stderrBox.get(), as: UTF8.self) }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
