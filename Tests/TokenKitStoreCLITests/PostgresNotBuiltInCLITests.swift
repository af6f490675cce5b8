#if !Postgres
import Foundation
import Testing
import TokenKitTestSupport

/// A `tokenkit` built without the `Postgres` trait (the default build, issue 26) still parses
/// `--backend postgres` and the `--database-*` options, and refuses them with exit 64 and one
/// `error:` line naming the build option, before it reads a passphrase or a password file,
/// whichever way the backend was chosen. Compiled only in a build without the trait:
/// scripts/leak-check's test build runs it.
@Suite("tokenkit without the Postgres trait")
struct PostgresNotBuiltInCLITests {
    static let fragment = "built without the PostgreSQL backend; build it with `swift build --traits Postgres`"

    @Test("--backend postgres: exit 64, one error line naming --traits Postgres")
    func flagRefused() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-nopg")
        let home = directory.path
        let result = try await TokenKitCLI().run(
            ["store", "list", "--service", "api", "--backend", "postgres", "--database-url", "postgres://svc@127.0.0.1:1/app"],
            environment: .isolated(["HOME": home]))
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }

    @Test("TOKENKIT_BACKEND=postgres: the same refusal")
    func environmentRefused() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-nopg")
        let home = directory.path
        let result = try await TokenKitCLI().run(["store", "list", "--service", "api"], environment: .isolated(["HOME": home, "TOKENKIT_BACKEND": "postgres"]))
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }

    @Test("refused before any secret is read: a missing passphrase or password file does not matter")
    func refusedBeforeSecrets() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-nopg")
        let home = directory.path
        let result = try await TokenKitCLI().run(
            ["store", "get", "--service", "api", "--account", "ci", "--backend", "postgres",
             "--passphrase-file", home + "/missing-passphrase", "--database-password-file", home + "/missing-password"],
            environment: .isolated(["HOME": home]))
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }
}
#endif
