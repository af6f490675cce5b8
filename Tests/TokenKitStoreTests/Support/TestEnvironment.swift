import Foundation
import Testing
import TokenKitSecretService

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

    /// Finds an executable built next to the running test binary (e.g. `.build/debug/NAME`),
    /// searching from the test executable's directory upwards.
    static func builtBinary(named name: String) -> String? {
        let start = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = start.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }
}

/// Tests that need a live Secret Service call ``requireLive()`` first: it returns when one
/// answers on DBUS_SESSION_BUS_ADDRESS; otherwise it fails the test when
/// TOKENKIT_REQUIRE_SECRET_SERVICE=1 (CI), or skips it with a visible message.
enum SecretServiceGate {
    static func requireLive() async throws {
        let status = await SecretServiceProbe.check(environment: ProcessInfo.processInfo.environment, timeout: 2)
        if status.isAvailable { return }
        let message = "no live Secret Service (\(status.reason)); run under scripts/with-secret-service"
        if ProcessInfo.processInfo.environment["TOKENKIT_REQUIRE_SECRET_SERVICE"] == "1" {
            Issue.record("TOKENKIT_REQUIRE_SECRET_SERVICE=1 but \(message)")
            throw SkippedOrFailed()
        }
        print("SKIPPED: \(message)")
        try Test.cancel("skipped: \(message)")
    }

    struct SkippedOrFailed: Error {}
}
