import Foundation
import Testing
import TokenKitSecretService
import TokenKitTestSupport

/// Temporary directories (mode 0700, removed by the caller) and sibling binaries.
enum TestEnvironment {
    /// A fresh private (0700) directory under the system temporary directory.
    static func makeTemporaryDirectory() throws -> String {
        let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tokenkit-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Removes a directory tree made by ``makeTemporaryDirectory()``.
    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The package's root directory (where `scripts/` lives), from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `path ARGS` with `environment` added to this process's, stdout captured (stderr
    /// passed through), and waits for it with `waitpid` (Foundation's `waitUntilExit` has
    /// missed children's exits here). Returns the exit status (128 + signal when killed) and
    /// stdout with surrounding whitespace trimmed.
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EIO) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .ENOENT)
        }
        let output = PipeIO.readAll(FileHandle(fileDescriptor: fds[0], closeOnDealloc: true))
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Finds an executable built next to the running test binary (e.g. `.build/debug/NAME`),
    /// searching from the test executable's directory upwards.
    static func builtBinary(named name: String) -> String? {
        try? BuiltBinary.path(named: name)
    }
}

/// Tests that need a live Secret Service call ``requireLive()`` first: it returns when one
/// answers on DBUS_SESSION_BUS_ADDRESS; otherwise it fails the test when
/// TOKENKIT_REQUIRE_SECRET_SERVICE=1 (CI), or skips it with a visible message.
enum SecretServiceGate {
    static func requireLive() async throws {
        let status = await SecretServiceProbe.check(environment: ProcessInfo.processInfo.environment, timeout: .seconds(2))
        try ServiceGate.require(
            status.isAvailable, otherwise: "no live Secret Service (\(status.reason)); run under scripts/with-secret-service",
            requiredBy: "TOKENKIT_REQUIRE_SECRET_SERVICE")
    }
}
