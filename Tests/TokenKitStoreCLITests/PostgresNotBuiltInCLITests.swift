#if !Postgres
import Foundation
import Testing

/// A `tokenkit` built without the `Postgres` trait (the default build, issue 26) still parses
/// `--backend postgres` and the `--database-*` options, and refuses them with exit 64 and one
/// `error:` line naming the build option, before it reads a passphrase or a password file,
/// whichever way the backend was chosen. Compiled only in a build without the trait:
/// scripts/leak-check's test build runs it.
@Suite("tokenkit without the Postgres trait")
struct PostgresNotBuiltInCLITests {
    static let fragment = "built without the PostgreSQL backend; build it with `swift build --traits Postgres`"

    func home() throws -> String {
        let directory = NSTemporaryDirectory() + "tokenkit-nopg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }

    @Test("--backend postgres: exit 64, one error line naming --traits Postgres")
    func flagRefused() async throws {
        let home = try home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try await CLI.run(
            ["store", "list", "--service", "api", "--backend", "postgres", "--database-url", "postgres://svc@127.0.0.1:1/app"],
            environment: ["HOME": home])
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }

    @Test("TOKENKIT_BACKEND=postgres: the same refusal")
    func environmentRefused() async throws {
        let home = try home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try await CLI.run(["store", "list", "--service", "api"], environment: ["HOME": home, "TOKENKIT_BACKEND": "postgres"])
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }

    @Test("refused before any secret is read: a missing passphrase or password file does not matter")
    func refusedBeforeSecrets() async throws {
        let home = try home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try await CLI.run(
            ["store", "get", "--service", "api", "--account", "ci", "--backend", "postgres",
             "--passphrase-file", home + "/missing-passphrase", "--database-password-file", home + "/missing-password"],
            environment: ["HOME": home])
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }
}
#endif
