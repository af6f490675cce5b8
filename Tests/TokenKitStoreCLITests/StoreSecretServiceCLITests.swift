import Foundation
import Testing
import TokenKitTestSupport

/// `tokenkit store` against a real Secret Service (gnome-keyring on a private bus).
@Suite("tokenkit store (secret-service backend)")
struct StoreSecretServiceCLITests {
    var environment: [String: String] {
        SecretServiceEnvironment.busEnvironment.merging(["HOME": NSTemporaryDirectory()]) { _, new in new }
    }

    @Test("put, get, get --reveal, list, delete on the keyring")
    func roundTrip() async throws {
        try await requireLiveSecretService(environment)
        let service = "dev.tokenkit.cli-tests.\(UUID().uuidString)"
        let backend = ["--backend", "secret-service"]
        let secret: [UInt8] = Array("KEYRING-SECRET".utf8) + [0, 1, 0]
        let put = try await TokenKitCLI().run(["store", "put", "--service", service, "--account", "ci"] + backend, stdin: secret, environment: .isolated(environment))
        #expect(put.status == 0, "\(put.stderr)")
        let get = try await TokenKitCLI().run(["store", "get", "--service", service, "--account", "ci"] + backend, environment: .isolated(environment))
        #expect(get.status == 0)
        #expect(get.stdoutText.contains("backend: secret-service"))
        #expect(get.stdoutText.contains("size: \(secret.count)"))
        #expect(!get.stdoutText.contains("KEYRING-SECRET"))
        let reveal = try await TokenKitCLI().run(["store", "get", "--service", service, "--account", "ci", "--reveal"] + backend, environment: .isolated(environment))
        #expect(reveal.stdout == secret)
        let auto = try await TokenKitCLI().run(["store", "get", "--service", service, "--account", "ci", "--reveal"], environment: .isolated(environment))
        #expect(auto.stdout == secret, "auto picks the live Secret Service: \(auto.stderr)")
        let list = try await TokenKitCLI().run(["store", "list", "--service", service] + backend, environment: .isolated(environment))
        #expect(list.stdoutText.hasPrefix("ci\tkind=secret\tsize=\(secret.count)"))
        #expect(!list.stdoutText.contains("KEYRING-SECRET"))
        #expect(try await TokenKitCLI().run(["store", "delete", "--service", service, "--account", "ci"] + backend, environment: .isolated(environment)).status == 0)
        expectOneErrorLine(
            try await TokenKitCLI().run(["store", "get", "--service", service, "--account", "ci"] + backend, environment: .isolated(environment)),
            status: 1, containing: "no credential stored")
    }

    /// Runs a shell script inside a fresh private bus with its own unlocked keyring, with
    /// `$TOKENKIT` set to the binary under test.
    func inPrivateKeyring(_ script: String) async throws -> CLIResult {
        let environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": NSTemporaryDirectory(), "TOKENKIT": try TokenKitCLI().path,
            "WITH_SECRET_SERVICE_NO_INSTALL": "1",
        ]
        return CLIResult(try await ChildProcess(SourceTree.path("scripts/with-secret-service"), ["bash", "-c", script], environment: environment)
            .run(timeout: .seconds(120)))
    }

    static let lockDefaultCollection = """
        coll=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.secrets /org/freedesktop/secrets \
            org.freedesktop.Secret.Service.ReadAlias string:default | tr -d ' ')
        dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
            org.freedesktop.Secret.Service.Lock "array:objpath:$coll" >/dev/null || exit 99
        """

    @Test("a locked collection is reported as locked (exit 2), never as 'not found'")
    func lockedCollection() async throws {
        try await requireLiveSecretService(environment)
        let result = try await inPrivateKeyring("""
            printf 'LOCKED-SECRET' | "$TOKENKIT" store put --service svc --account a --backend secret-service >/dev/null || exit 98
            \(Self.lockDefaultCollection)
            "$TOKENKIT" store get --service svc --account a --backend secret-service
            """)
        expectOneErrorLine(result, status: 2, containing: "locked")
        #expect(!result.stderr.contains("no credential"))
        let put = try await inPrivateKeyring("""
            \(Self.lockDefaultCollection)
            printf 'LOCKED-SECRET' | "$TOKENKIT" store put --service svc --account b --backend secret-service
            """)
        expectOneErrorLine(put, status: 2, containing: "locked")
        let list = try await inPrivateKeyring("""
            \(Self.lockDefaultCollection)
            "$TOKENKIT" store list --service svc --backend secret-service
            """)
        expectOneErrorLine(list, status: 2, containing: "locked")
    }
}
