import ArgumentParser
import Foundation
import TokenKitAuth
import TokenKitPostgres
import TokenKitSecretService
import TokenKitStore

/// Where credentials are kept: `--backend auto|secret-service|file|postgres`, `--file PATH`,
/// `--passphrase-file PATH`, `--database-url URL`, `--database-password-file PATH`. Reusable by any command that reads or writes the store
/// (`@OptionGroup var backend: BackendOptions`, then `try await backend.openStore()`).
struct BackendOptions: ParsableArguments {
    /// The `--backend` values.
    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case auto
        case secretService = "secret-service"
        case file
        case postgres
    }

    @Option(help: "Where credentials live: auto (the Secret Service if one answers, else the encrypted file), secret-service, file, or postgres (with --database-url).")
    var backend: Backend = .auto

    @Option(
        name: .customLong("file"),
        help: "The encrypted file (default: $XDG_DATA_HOME/tokenkit/credentials.tkstore, or ~/.local/share/tokenkit/credentials.tkstore).")
    var file: String?

    @Option(help: "A file whose first line is the encrypted file's passphrase (else $TOKENKIT_PASSPHRASE, else a prompt on the terminal).")
    var passphraseFile: String?

    @Option(help: .hidden)
    var scryptLogN: UInt8?

    @OptionGroup(title: "PostgreSQL (with --backend postgres)")
    var database: DatabaseOptions

    /// An opened store and, for messages, why this backend.
    struct Opened {
        let store: any TokenStore
        let reason: String
        /// Makes the lock that coordinates refreshes with every other user of this store, when
        /// the backend brings its own (PostgreSQL), for a wait of at most the given duration;
        /// `nil` means "use the per-host file lock".
        var refreshLock: (@Sendable (Duration) -> any RefreshLock)? = nil
    }

    /// Opens the chosen backend. Failures are ``CLIFailure``s (exit 2 for storage, 64 usage).
    func openStore(environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> Opened {
        switch backend {
        case .file:
            return Opened(store: try fileStore(environment: environment), reason: "file: chosen with --backend file")
        case .postgres:
            let key = try PassphraseReader.key(passphraseFile: passphraseFile, environment: environment)
            let opened = try database.open(key: key, scryptLogN: try checkedScryptLogN(), environment: environment)
            return Opened(store: opened.store, reason: "postgres: chosen with --backend postgres", refreshLock: opened.lock)
        case .secretService:
            let store = SecretServiceStore(options: .standard(environment: environment), environment: environment)
            return Opened(store: store, reason: "secret-service: chosen with --backend secret-service")
        case .auto:
            do {
                let choice = try await TokenStores.makeDefault(environment: environment) { () throws(TokenStoreError) -> any TokenStore in
                    do {
                        return try fileStore(environment: environment)
                    } catch let error as CLIFailure {
                        throw TokenStoreError(code: .missingPassphrase, message: error.message)
                    } catch {
                        throw TokenStoreError(code: .backend, message: "cannot open the encrypted file")
                    }
                }
                return Opened(store: choice.store, reason: choice.reason)
            } catch {
                throw CLIFailure(error)
            }
        }
    }

    private func fileStore(environment: [String: String]) throws -> EncryptedFileStore {
        let path: String
        if let file {
            guard !file.isEmpty else { throw CLIFailure.usage("--file must not be empty") }
            path = file
        } else {
            do { path = try EncryptedFileStore.defaultPath(environment: environment) } catch { throw CLIFailure(error) }
        }
        let key = try PassphraseReader.key(passphraseFile: passphraseFile, environment: environment)
        var options = EncryptedFileStore.Options()
        if let logN = try checkedScryptLogN() { options.scryptCost.logN = logN }
        return EncryptedFileStore(path: path, key: key, options: options)
    }

    private func checkedScryptLogN() throws -> UInt8? {
        guard let scryptLogN else { return nil }
        guard (1...30).contains(scryptLogN) else { throw CLIFailure.usage("--scrypt-log-n must be 1 to 30") }
        return scryptLogN
    }
}
