import Foundation
import Testing

/// The Secret Service the tests talk to: gnome-keyring on the private session bus that
/// `scripts/with-secret-service` starts, found through this process's environment. One gate
/// for every suite that needs it: without it a test is skipped with a visible message, or
/// fails when TOKENKIT_REQUIRE_SECRET_SERVICE=1 (`scripts/test`).
public enum SecretServiceEnvironment {
    /// The variables that lead a child process to the session bus (`DBUS_SESSION_BUS_ADDRESS`,
    /// `XDG_RUNTIME_DIR`), as this process has them.
    public static var busEnvironment: [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment: [String: String] = [:]
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] { environment[name] = inherited[name] }
        return environment
    }

    /// Returns when a probe found the Secret Service `available`; otherwise skips the test, or
    /// fails it under TOKENKIT_REQUIRE_SECRET_SERVICE=1, naming the probe's `reason`.
    public static func require(available: Bool, reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ServiceGate.require(
            available, otherwise: "no live Secret Service (\(reason)); run under scripts/with-secret-service",
            requiredBy: "TOKENKIT_REQUIRE_SECRET_SERVICE", sourceLocation: sourceLocation)
    }
}
