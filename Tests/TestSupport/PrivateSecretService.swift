import Foundation

/// A Secret Service of a test's own, on a private D-Bus session bus: the repository's
/// `scripts/with-secret-service` (gnome-keyring) or `scripts/with-keepassxc` (KeePassXC under
/// Xvfb), running in the background until ``stop()``, so a test can break the provider while
/// a `tokenkit` process uses it: lock its default collection, stop it (a hung provider), or
/// kill it.
///
/// Guarantees: ``start(script:environment:)`` returns once the wrapper's readiness check
/// passed (it prints the bus address only then); ``stop()`` ends the wrapper's process group,
/// whose exit trap stops the daemons it started and removes their files. Does not: isolate
/// anything beyond what the wrapper does (its own bus, data and runtime directories).
public final class PrivateSecretService: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a constant; `running` is thread-safe.
    /// The bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    public let busAddress: String
    /// The provider daemon's process id.
    public let providerPID: pid_t
    /// The X display the provider shows its prompts on (`scripts/with-keepassxc`), if any.
    public let display: String?
    /// KeePassXC's database (`scripts/with-keepassxc`), or "-".
    public let databasePath: String
    /// The file holding that database's password, or "-".
    public let databasePasswordPath: String
    private let running: ChildProcess.Running

    private init(fields: [String], providerPID: pid_t, running: ChildProcess.Running) {
        busAddress = fields[1]
        self.providerPID = providerPID
        display = fields[3] == "-" ? nil : fields[3]
        databasePath = fields[4]
        databasePasswordPath = fields[5]
        self.running = running
    }

    /// Starts `script` (relative to the source tree) with `environment` added to a minimal one.
    public static func start(script: String = "scripts/with-secret-service", environment extra: [String: String] = [:]) async throws -> PrivateSecretService {
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": NSTemporaryDirectory(), "WITH_SECRET_SERVICE_NO_INSTALL": "1"]
        environment.merge(extra) { _, new in new }
        let report = #"printf 'ready %s %s %s %s %s\n' "$DBUS_SESSION_BUS_ADDRESS" "${WITH_SECRET_SERVICE_KEYRING_PID:-$WITH_KEEPASSXC_PID}" "${DISPLAY:--}" "${WITH_KEEPASSXC_DATABASE:--}" "${WITH_KEEPASSXC_PASSWORD_FILE:--}"; exec sleep 3600"#
        let running = try ChildProcess(SourceTree.path(script), ["/bin/bash", "-c", report], environment: environment, stdin: .bytes([])).start()
        let text = try await running.waitForStdout(timeout: .seconds(90)) { $0.contains("\n") }
        let fields = text.split(separator: "\n").first.map { $0.split(separator: " ").map(String.init) } ?? []
        guard fields.count == 6, fields[0] == "ready", let pid = pid_t(fields[2]) else {
            kill(-running.pid, SIGTERM)
            let outcome = try? await running.wait(timeout: .seconds(20))
            throw ServiceGate.Unavailable(message: "\(script) did not start: \(text) \(outcome?.stderrText ?? "")")
        }
        return PrivateSecretService(fields: fields, providerPID: pid, running: running)
    }

    /// The variables that lead a child to this bus (and display, when there is one).
    public var environment: [String: String] {
        var environment = ["DBUS_SESSION_BUS_ADDRESS": busAddress]
        if let display { environment["DISPLAY"] = display }
        return environment
    }

    /// Locks the default collection over D-Bus, as a screen locker does (gnome-keyring locks
    /// without a prompt), and checks that it is locked.
    public func lockDefaultCollection() async throws {
        let outcome = try await ChildProcess("/bin/bash", ["-c", Self.lockScript], environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": busAddress], stdin: .bytes([]))
            .run(timeout: .seconds(20))
        guard outcome.status == 0 else { throw ServiceGate.Unavailable(message: "cannot lock the default collection: \(outcome.stderrText)") }
    }

    /// A bash script that locks the default collection of the Secret Service on
    /// `DBUS_SESSION_BUS_ADDRESS` and fails unless it is then locked (`set -e`).
    public static let lockScript = #"""
        set -e
        call() { dbus-send --session --print-reply=literal --reply-timeout=5000 --dest=org.freedesktop.secrets "$@"; }
        coll=$(call /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias string:default | tr -d ' ')
        call /org/freedesktop/secrets org.freedesktop.Secret.Service.Lock "array:objpath:$coll" >/dev/null
        call "$coll" org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Collection string:Locked | grep -q true
        """#

    /// Stops (`SIGSTOP`: a hung provider), resumes (`SIGCONT`) or kills (`SIGKILL`) the provider.
    public func signalProvider(_ signal: Int32) {
        kill(providerPID, signal)
    }

    /// Ends the wrapper and waits for its cleanup.
    public func stop() async {
        kill(providerPID, SIGCONT)
        kill(-running.pid, SIGTERM)
        _ = try? await running.wait(timeout: .seconds(30))
    }
}
