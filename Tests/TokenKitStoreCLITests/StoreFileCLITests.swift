import Foundation
import Testing
import TokenKitTestSupport

/// `tokenkit store` against the encrypted-file backend: outputs, exit codes, error lines.
@Suite("tokenkit store (file backend)")
struct StoreFileCLITests {
    /// A private directory (removed with the fixture) with a passphrase file, and the common
    /// arguments.
    struct Fixture {
        let temporary: PrivateTemporaryDirectory
        let directory: String
        let file: String
        let passphraseFile: String

        init() throws {
            temporary = try PrivateTemporaryDirectory(prefix: "tokenkit-cli")
            directory = temporary.path
            file = "\(directory)/data/credentials.tkstore"
            passphraseFile = try temporary.write("passphrase", "file-pass-phrase\nsecond line ignored\n")
        }

        var backend: [String] { ["--backend", "file", "--file", file, "--passphrase-file", passphraseFile, "--scrypt-log-n", "4"] }
        var environment: [String: String] { ["HOME": directory] }

        func run(_ arguments: [String], stdin: [UInt8] = [], extraEnvironment: [String: String] = [:]) async throws -> CLIResult {
            try await TokenKitCLI().run(arguments + backend, stdin: stdin, environment: .isolated(environment.merging(extraEnvironment) { $1 }))
        }
    }

    @Test("put, get, get --reveal, list, delete: outputs and exit codes")
    func roundTrip() async throws {
        let fx = try Fixture()
        let secret: [UInt8] = Array("BIN-SECRET".utf8) + [0, 255, 10, 0]
        let put = try await fx.run(["store", "put", "--service", "api", "--account", "ci"], stdin: secret)
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.stderr.isEmpty)
        #expect(!put.stdoutText.contains("BIN-SECRET"))

        let get = try await fx.run(["store", "get", "--service", "api", "--account", "ci"])
        #expect(get.status == 0)
        #expect(get.stdoutText.contains("kind: secret"))
        #expect(get.stdoutText.contains("size: \(secret.count)"))
        #expect(get.stdoutText.contains("updated: "))
        #expect(!get.stdoutText.contains("BIN-SECRET"))

        let reveal = try await fx.run(["store", "get", "--service", "api", "--account", "ci", "--reveal"])
        #expect(reveal.status == 0)
        #expect(reveal.stdout == secret)
        #expect(reveal.stderr.isEmpty)

        _ = try await fx.run(["store", "put", "--service", "api", "--account", "another"], stdin: Array("OTHER-SECRET".utf8))
        let list = try await fx.run(["store", "list", "--service", "api"])
        #expect(list.status == 0)
        let lines = list.stdoutText.split(separator: "\n")
        #expect(lines.map { $0.split(separator: "\t").first.map(String.init) } == ["another", "ci"])
        #expect(lines.allSatisfy { $0.contains("kind=secret") && $0.contains("size=") })
        #expect(!list.stdoutText.contains("SECRET"))

        let delete = try await fx.run(["store", "delete", "--service", "api", "--account", "ci"])
        #expect(delete.status == 0)
        expectOneErrorLine(try await fx.run(["store", "get", "--service", "api", "--account", "ci"]), status: 1, containing: "no credential stored")
        expectOneErrorLine(try await fx.run(["store", "get", "--service", "api", "--account", "ci", "--reveal"]), status: 1, containing: "no credential stored")
        expectOneErrorLine(try await fx.run(["store", "delete", "--service", "api", "--account", "ci"]), status: 1, containing: "no credential stored")
    }

    @Test("put --token-set stores a token set; --reveal prints it back with the same field names")
    func tokenSet() async throws {
        let fx = try Fixture()
        let json = #"{"access_token":"AT-SECRET","refresh_token":"RT-SECRET","token_type":"Bearer","expires_at":1900000000,"scope":"read write","metadata":{"role":"parent"}}"#
        let put = try await fx.run(["store", "put", "--service", "api", "--account", "parent", "--token-set"], stdin: Array(json.utf8))
        #expect(put.status == 0, "\(put.stderr)")
        let get = try await fx.run(["store", "get", "--service", "api", "--account", "parent"])
        #expect(get.stdoutText.contains("kind: token-set"))
        #expect(get.stdoutText.contains("expires: 2030-03-17T17:46:40Z"))
        #expect(!get.stdoutText.contains("AT-SECRET") && !get.stdoutText.contains("RT-SECRET"))
        let reveal = try await fx.run(["store", "get", "--service", "api", "--account", "parent", "--reveal"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reveal.stdout)) as? [String: Any])
        #expect(object["access_token"] as? String == "AT-SECRET")
        #expect(object["refresh_token"] as? String == "RT-SECRET")
        #expect(object["expires_at"] as? Int == 1_900_000_000)
        #expect((object["metadata"] as? [String: String])?["role"] == "parent")
        let list = try await fx.run(["store", "list", "--service", "api"])
        #expect(list.stdoutText.contains("expires=2030-03-17T17:46:40Z"))
        #expect(!list.stdoutText.contains("SECRET"))
        expectOneErrorLine(
            try await fx.run(["store", "put", "--service", "api", "--account", "bad", "--token-set"], stdin: Array(#"{"refresh_token":"x"}"#.utf8)),
            status: 64, containing: "access_token")
    }

    @Test("wrong passphrase and a tampered file: exit 2 with different, named reasons, no secrets")
    func wrongPassphraseVersusTampered() async throws {
        let fx = try Fixture()
        _ = try await fx.run(["store", "put", "--service", "api", "--account", "ci"], stdin: Array("KEEP-SECRET".utf8))
        let wrong = try await TokenKitCLI().run(
            ["store", "get", "--service", "api", "--account", "ci", "--backend", "file", "--file", fx.file],
            environment: .isolated(["HOME": fx.directory, "TOKENKIT_PASSPHRASE": "not-it"]))
        expectOneErrorLine(wrong, status: 2, containing: "wrong passphrase")
        #expect(!wrong.stderr.contains("not-it") && !wrong.stderr.contains("file-pass-phrase"))

        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fx.file)))
        bytes[bytes.count - 3] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: fx.file))
        chmod(fx.file, 0o600)
        let tampered = try await fx.run(["store", "get", "--service", "api", "--account", "ci"])
        expectOneErrorLine(tampered, status: 2, containing: "modified or damaged")
        #expect(!tampered.stderr.contains("wrong passphrase"))
        try Data(bytes.prefix(50)).write(to: URL(fileURLWithPath: fx.file))
        expectOneErrorLine(try await fx.run(["store", "list", "--service", "api"]), status: 2, containing: "truncated")
    }

    @Test("a 0644 store file is refused with exit 2 and the fix")
    func loosePermissions() async throws {
        let fx = try Fixture()
        _ = try await fx.run(["store", "put", "--service", "api", "--account", "ci"], stdin: [1])
        chmod(fx.file, 0o644)
        expectOneErrorLine(try await fx.run(["store", "get", "--service", "api", "--account", "ci"]), status: 2, containing: "chmod 600")
    }

    @Test("no passphrase anywhere (no file, no variable, no terminal) is a clear error, never an empty passphrase")
    func missingPassphrase() async throws {
        let fx = try Fixture()
        let result = try await TokenKitCLI().run(
            ["store", "put", "--service", "api", "--account", "ci", "--backend", "file", "--file", fx.file],
            stdin: [1], environment: .isolated(["HOME": fx.directory]), wrapper: ["/usr/bin/setsid", "--wait"])
        expectOneErrorLine(result, status: 2, containing: "TOKENKIT_PASSPHRASE")
        #expect(!FileManager.default.fileExists(atPath: fx.file))
        let empty = try await TokenKitCLI().run(
            ["store", "put", "--service", "api", "--account", "ci", "--backend", "file", "--file", fx.file],
            stdin: [1], environment: .isolated(["HOME": fx.directory, "TOKENKIT_PASSPHRASE": ""]), wrapper: ["/usr/bin/setsid", "--wait"])
        expectOneErrorLine(empty, status: 2, containing: "empty")
    }

    @Test("usage errors exit 64: missing options, empty stdin, bad names")
    func usageErrors() async throws {
        let fx = try Fixture()
        let missing = try await fx.run(["store", "get", "--account", "ci"])
        #expect(missing.status == 64)
        #expect(missing.stdout.isEmpty)
        expectOneErrorLine(try await fx.run(["store", "put", "--service", "api", "--account", "ci"], stdin: []), status: 64, containing: "nothing on stdin")
        expectOneErrorLine(try await fx.run(["store", "get", "--service", "", "--account", "ci"]), status: 64, containing: "invalid credential key")
    }

    @Test("--backend auto with no Secret Service uses the file, and get says why")
    func autoFallsBackToFile() async throws {
        let fx = try Fixture()
        for environment in [["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"], [:]] {
            let env = environment.merging(["HOME": fx.directory, "TOKENKIT_PASSPHRASE": "auto-pass", "XDG_DATA_HOME": "\(fx.directory)/xdg"]) { $1 }
            let put = try await TokenKitCLI().run(["store", "put", "--service", "api", "--account", "auto", "--scrypt-log-n", "4"], stdin: Array("AUTO-SECRET".utf8), environment: .isolated(env))
            #expect(put.status == 0, "\(put.stderr)")
            #expect(FileManager.default.fileExists(atPath: "\(fx.directory)/xdg/tokenkit/credentials.tkstore"))
            let get = try await TokenKitCLI().run(["store", "get", "--service", "api", "--account", "auto"], environment: .isolated(env))
            #expect(get.status == 0)
            #expect(get.stdoutText.contains("backend: file: "))
            #expect(get.stdoutText.contains(environment.isEmpty ? "DBUS_SESSION_BUS_ADDRESS is not set" : "cannot connect to the D-Bus session bus"))
        }
    }

    @Test("--backend secret-service with no Secret Service: exit 2, naming the cause and the fix")
    func explicitSecretServiceMissing() async throws {
        let fx = try Fixture()
        let result = try await TokenKitCLI().run(
            ["store", "put", "--service", "api", "--account", "x", "--backend", "secret-service"], stdin: Array("NOPE-SECRET".utf8),
            environment: .isolated(["HOME": fx.directory, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]))
        expectOneErrorLine(result, status: 2, containing: "no Secret Service")
        #expect(result.stderr.contains("gnome-keyring-daemon"))
        #expect(!result.stderr.contains("NOPE-SECRET"))
    }
}
