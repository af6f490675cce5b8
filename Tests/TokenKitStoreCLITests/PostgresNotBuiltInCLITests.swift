import Foundation
import Testing
import TokenKitTestSupport

/// A `tokenkit` built without the `Postgres` trait (the default build, issue 26) still parses
/// `--backend postgres` and the `--database-*` options, and refuses them with exit 64 and one
/// `error:` line naming the build option, before it reads a passphrase or a password file,
/// whichever way the backend was chosen.
///
/// The binary under test must lack the trait: in a test build without it, the `tokenkit` built
/// beside the tests does; in one with it (scripts/test's), only a binary named by
/// `TOKENKIT_CLI` and declared so by `TOKENKIT_CLI_WITHOUT_POSTGRES=1` — scripts/test runs this
/// suite against scripts/install's release build, the default build users get. Without such a
/// binary the suite skips with a reason, and fails when `TOKENKIT_CLI_WITHOUT_POSTGRES=1`
/// names none.
@Suite("tokenkit without the Postgres trait")
struct PostgresNotBuiltInCLITests {
    static let fragment = "built without the PostgreSQL backend; build it with `swift build --traits Postgres`"

    /// A runner of a `tokenkit` that has no PostgreSQL backend (see the suite's comment).
    static func binaryWithoutPostgres() throws -> TokenKitCLI {
        #if Postgres
        let environment = ProcessInfo.processInfo.environment
        let declared = environment["TOKENKIT_CLI_WITHOUT_POSTGRES"] == "1" && environment["TOKENKIT_CLI"] != nil
        try ServiceGate.require(
            declared, otherwise: "this test build has the Postgres trait, and no TOKENKIT_CLI built without it is named (TOKENKIT_CLI_WITHOUT_POSTGRES=1)",
            requiredBy: "TOKENKIT_CLI_WITHOUT_POSTGRES")
        #endif
        return try TokenKitCLI()
    }

    @Test("--backend postgres: exit 64, one error line naming --traits Postgres")
    func flagRefused() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-nopg")
        let home = directory.path
        let result = try await Self.binaryWithoutPostgres().run(
            ["store", "list", "--service", "api", "--backend", "postgres", "--database-url", "postgres://svc@127.0.0.1:1/app"],
            environment: .isolated(["HOME": home]))
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }

    @Test("TOKENKIT_BACKEND=postgres: the same refusal")
    func environmentRefused() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-nopg")
        let home = directory.path
        let result = try await Self.binaryWithoutPostgres().run(["store", "list", "--service", "api"], environment: .isolated(["HOME": home, "TOKENKIT_BACKEND": "postgres"]))
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }

    @Test("refused before any secret is read: a missing passphrase or password file does not matter")
    func refusedBeforeSecrets() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-nopg")
        let home = directory.path
        let result = try await Self.binaryWithoutPostgres().run(
            ["store", "get", "--service", "api", "--account", "ci", "--backend", "postgres",
             "--passphrase-file", home + "/missing-passphrase", "--database-password-file", home + "/missing-password"],
            environment: .isolated(["HOME": home]))
        expectOneErrorLine(result, status: 64, containing: Self.fragment)
    }
}
