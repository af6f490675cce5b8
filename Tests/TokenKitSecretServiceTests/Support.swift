import Foundation
import TokenKitTestSupport

/// A private dbus-daemon with nothing on it (no Secret Service), stopped by ``stop()``; its
/// socket directory is removed when the object is released.
///
/// With `answering: false` its policy drops every reply, so it accepts connections but never
/// answers a call: a hung bus.
final class PrivateBus {
    let address: String
    private let pid: pid_t
    /// The bus's socket directory, removed when this object goes.
    private let socketDirectory: PrivateTemporaryDirectory

    init(answering: Bool = true) async throws {
        socketDirectory = try PrivateTemporaryDirectory(prefix: "tokenkit-bus")
        let directory = socketDirectory.path
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
        // Waited for with waitpid (ChildProcess): Foundation's Process.waitUntilExit can hang on
        // a child that exits this quickly.
        // Through bash, which first closes every inherited descriptor above 2: the daemon
        // outlives this call and must not hold pipes of concurrently running tests open
        // (their readers would never see end of file).
        let closeAndExec = #"for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-" 2>/dev/null; done; exec /usr/bin/dbus-daemon "$@""#
        let output = try await ChildProcess(
            "/bin/bash", ["-c", closeAndExec, "bash", "--config-file=\(directory)/bus.conf", "--fork", "--print-address=1", "--print-pid=1"],
            stdin: .inherit, stderr: .inherit
        ).run().stdout
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        guard lines.count >= 2, let pid = pid_t(lines[1]) else { throw CocoaError(.fileReadUnknown) }
        address = String(lines[0])
        self.pid = pid
    }

    func stop() {
        // dbus-daemon does not exit on SIGTERM; this daemon holds nothing worth a clean exit.
        kill(pid, SIGKILL)
    }
}
