import ArgumentParser
import TokenKitStore

/// `--service S --account A`, validated into a ``CredentialKey``.
struct CredentialKeyOptions: ParsableArguments {
    @Option(help: "The service the credential belongs to (e.g. com.example.api).")
    var service: String

    @Option(help: "The account within the service.")
    var account: String

    /// The key, or a usage error (exit 64) naming what is wrong with the names.
    func key() throws -> CredentialKey {
        do {
            return try CredentialKey(service: service, account: account)
        } catch {
            throw CLIFailure.usage(error.message)
        }
    }
}
