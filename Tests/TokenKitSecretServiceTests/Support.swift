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
///
/// With `answering: false` its policy drops every reply, so it accepts connections but never
/// answers a call: a hung bus.
final class PrivateBus {
    let address: String
    private let pid: pid_t
    private let directory: String

    init(answering: Bool = true) throws {
        directory = NSTemporaryDirectory() + "tokenkit-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let policy = answering
            ? #"<allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>"#
            : #"<allow send_destination="*"/><allow own="*"/>"#
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:dir=\(directory)</listen><auth>EXTERNAL</auth>
            <policy context="default">\(policy)</policy></busconfig>
            """
        try config.write(toFile: "\(directory)/bus.conf", atomically: true, encoding: .utf8)
        // --fork: the daemon detaches (and closes our pipe), printing its address and PID.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(directory)/bus.conf", "--fork", "--print-address=1", "--print-pid=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = String(decoding: PipeIO.readAll(output.fileHandleForReading), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        guard lines.count >= 2, let pid = pid_t(lines[1]) else { throw CocoaError(.fileReadUnknown) }
        address = String(lines[0])
        self.pid = pid
    }

    func stop() {
        kill(pid, SIGTERM)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
