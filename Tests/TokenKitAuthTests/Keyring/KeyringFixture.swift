#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// What the keyring tests share: a private gnome-keyring per test (``PrivateSecretService``),
/// the sandbox of the token tests, and the ways to break the keyring at the moment of a write.
enum KeyringFixture {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    /// How the keyring fails while `tokenkit` waits for the token endpoint.
    enum Breakage: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The default collection is locked (a screen locker).
        case locked
        /// The daemon is killed.
        case killed
        /// The daemon is stopped (`SIGSTOP`): every call waits for the store's 5 s deadline.
        case hung

        var testDescription: String { rawValue }

        func apply(to keyring: PrivateSecretService) async throws {
            switch self {
            case .locked: try await keyring.lockDefaultCollection()
            case .killed: keyring.signalProvider(SIGKILL)
            case .hung: keyring.signalProvider(SIGSTOP)
            }
        }
    }

    /// Runs `body` with a fresh private keyring, stopped afterwards (also when `body` throws);
    /// skips (or, with TOKENKIT_REQUIRE_SECRET_SERVICE=1, fails) when none can be started.
    static func withKeyring<T: Sendable>(
        environment: [String: String] = [:], _ body: @Sendable (PrivateSecretService) async throws -> T
    ) async throws -> T {
        let keyring: PrivateSecretService
        do {
            keyring = try await PrivateSecretService.start(environment: environment)
        } catch {
            try SecretServiceEnvironment.require(available: false, reason: "\(error)")
            throw error
        }
        do {
            let result = try await body(keyring)
            await keyring.stop()
            return result
        } catch {
            await keyring.stop()
            throw error
        }
    }

    /// The sandbox's environment on `keyring`'s bus.
    static func environment(_ sandbox: Sandbox, _ keyring: PrivateSecretService?) -> [String: String] {
        var environment = sandbox.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = keyring?.busAddress ?? "unix:path=/nonexistent/bus"
        return environment
    }

    /// Waits (at most 30 s) until `condition` holds.
    static func waitUntil(_ what: String, _ condition: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw DeadlineExceeded(what: what) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `tokenkit login --device` for `key` against `server` (client_secret_basic with a
    /// secret file written into the sandbox), before any backend options.
    static func deviceLogin(_ key: [String], _ server: TestAuthorizationServer, _ sandbox: Sandbox) throws -> [String] {
        let secret = try file(sandbox, "client-secret", AuthorizationServerState.serviceClientSecret)
        return ["login", "--device"] + key + [
            "--token-endpoint", server.tokenEndpoint.absoluteString,
            "--device-authorization-endpoint", server.deviceEndpoint.absoluteString,
            "--client-id", AuthorizationServerState.serviceClientID, "--client-secret-file", secret,
        ]
    }

    /// A 0600 file in the sandbox.
    static func file(_ sandbox: Sandbox, _ name: String, _ text: String) throws -> String {
        let path = sandbox.root + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw DeadlineExceeded(what: "creating \(name)")
        }
        return path
    }

    /// Checks the rescue warning: one `warning:` line naming the backend, the rescue file and
    /// the command that moves the login back.
    static func expectRescueWarning(_ stderr: String, key: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let warnings = stderr.split(separator: "\n").filter { $0.hasPrefix("warning: the secret-service backend could not store the login") }
        #expect(warnings.count == 1, "stderr: \(stderr)", sourceLocation: sourceLocation)
        #expect(stderr.contains("/.local/state/tokenkit/rescue.tkstore"), "stderr: \(stderr)", sourceLocation: sourceLocation)
        #expect(stderr.contains("tokenkit store restore --service \(key[1]) --account \(key[3])"), "stderr: \(stderr)", sourceLocation: sourceLocation)
        #expect(!stderr.contains("error:"), "stderr: \(stderr)", sourceLocation: sourceLocation)
    }
}
#endif
