import Foundation
import Testing
import TokenKitTestSupport

/// The clients with the Secret Service backend: a real gnome-keyring in a private D-Bus
/// session (scripts/with-secret-service), the session surviving client restarts.
@Suite("Clients on the Secret Service")
struct SecretServiceStoreTests {
    /// Runs `binary ARGS` inside the environment this test process has (under
    /// scripts/with-secret-service, that includes the private session bus).
    static func run(_ binary: String, _ arguments: [String], stdin: String = "") async throws -> CLIResult {
        var environment = [String: String]()
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "HOME", "XDG_DATA_HOME"] {
            if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
        }
        return try await TokenKitCLI(binary: binary).run(arguments, stdin: stdin, environment: .client(environment))
    }

    @Test("with the default backend choice (auto), cleveroo keeps its session in the keyring: login once, children list in new processes, logout removes it")
    func cleverooOnKeyring() async throws {
        // Skips with a visible reason without a session bus, and fails instead under
        // scripts/test-examples (TOKENKIT_REQUIRE_SECRET_SERVICE=1).
        try ServiceGate.require(
            ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil,
            otherwise: "no session bus, so no Secret Service (run under scripts/with-secret-service)",
            requiredBy: "TOKENKIT_REQUIRE_SECRET_SERVICE")
        try await ServerProcess.with("cleveroo-server") { server in
            let profile = "test-\(UUID().uuidString.prefix(8))"
            // No --backend: TokenStores.makeDefault finds the Secret Service (no passphrase is given,
            // so falling back to the encrypted file would fail).
            let common = ["--server", server.url.absoluteString, "--profile", profile]
            let password = "keyring password 1"
            _ = try await Self.run("cleveroo", ["register", "--email", "\(profile)@example.com", "--phone", "1"] + common, stdin: "\(password)\n\(password)\n")
            let login = try await Self.run("cleveroo", ["login", "parent", "--email", "\(profile)@example.com"] + common, stdin: "\(password)\n")
            #expect(login.status == 0, "\(login.summary)")
            let whoami = try await Self.run("cleveroo", ["whoami"] + common)
            #expect(whoami.status == 0 && whoami.stdoutText.contains("stored in secret-service"), "\(whoami.summary)")
            let list = try await Self.run("cleveroo", ["children", "list"] + common)
            #expect(list.status == 0 && list.stdoutText == "no children yet\n", "\(list.summary)")
            let out = try await Self.run("cleveroo", ["logout"] + common)
            #expect(out.status == 0 && out.stdoutText == "signed out\n", "\(out.summary)")
            let after = try await Self.run("cleveroo", ["children", "list"] + common)
            expectOneErrorLine(after, status: 1, containing: "error: signed out")
        }
    }
}
