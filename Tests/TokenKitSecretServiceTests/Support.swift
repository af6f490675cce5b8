import Foundation
import Testing
import TokenKitSecretService

/// Skips (or, with TOKENKIT_REQUIRE_SECRET_SERVICE=1, fails) a test when no Secret Service
/// answers on DBUS_SESSION_BUS_ADDRESS.
enum SecretServiceGate {
    static func requireLive() async throws {
        let status = await SecretServiceProbe.check(environment: ProcessInfo.processInfo.environment, timeout: 2)
        if status.isAvailable { return }
        let message = "no live Secret Service (\(status.reason)); run under scripts/with-secret-service"
        if ProcessInfo.processInfo.environment["TOKENKIT_REQUIRE_SECRET_SERVICE"] == "1" {
            Issue.record("TOKENKIT_REQUIRE_SECRET_SERVICE=1 but \(message)")
            throw Unavailable()
        }
        print("SKIPPED: \(message)")
        try Test.cancel("skipped: \(message)")
    }

    struct Unavailable: Error {}
}

/// A private dbus-daemon with nothing on it (no Secret Service), stopped by ``stop()``.
final class PrivateBus {
    let address: String
    private let process: Process
    private let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tokenkit-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:dir=\(directory)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow send_destination="*"/><allow own="*"/></policy></busconfig>
            """
        try config.write(toFile: "\(directory)/bus.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
