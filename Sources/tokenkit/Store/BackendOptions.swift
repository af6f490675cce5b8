import ArgumentParser
import Foundation
import TokenKitAuth
import TokenKitSecretService
import TokenKitStore

/// Where credentials are kept: `--backend auto|secret-service|file|postgres`, `--file PATH`,
/// `--passphrase-file PATH`, `--database-url URL`, `--database-password-file PATH`. Reusable by any command that reads or writes the store
/// (`@OptionGroup var backend: BackendOptions`, then `try await backend.openStore(...)`).
///
/// Which backend (``BackendChoice``): `--backend`, else `TOKENKIT_BACKEND`, else the backend
/// `tokenkit login` recorded for the login, else `auto` decided afresh. Every store error names
/// the backend and how to choose another (``LabelledTokenStore``).
struct BackendOptions: ParsableArguments {
    /// The `--backend` values.
    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case auto
        case secretService = "secret-service"
        case file
        case postgres
    }

    @Option(help: "Where credentials live: auto (the Secret Service when its default collection is usable, else the encrypted file), secret-service, file, or postgres (with --database-url; in a build with the Postgres trait). Default: $TOKENKIT_BACKEND, else the backend `tokenkit login` recorded for this login, else auto.")
    var backend: Backend?

    @Option(
        name: .customLong("file"),
        help: "The encrypted file (default: the one recorded for this login, else $XDG_DATA_HOME/tokenkit/credentials.tkstore, or ~/.local/share/tokenkit/credentials.tkstore).")
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
        /// What `tokenkit login` records about this backend (no secret).
        var record: LoginRecord

        /// Throws the failure a write would meet now (before a sign-in starts).
        func checkWritable() async throws {
            guard let checkable = store as? any TokenStorePreflight else { return }
            do { try await checkable.checkWritable() } catch { throw CLIFailure(error) }
        }
    }

    /// Opens the backend for `key` (or for listing `services`), as ``BackendChoice`` decides.
    /// With `rescuing`, writes that fail go to the rescue file (``RescuingTokenStore``) with
    /// one warning line: for what a server issued. Failures are ``CLIFailure``s (exit 2 for
    /// storage, 64 usage).
    func openStore(
        key: CredentialKey? = nil, services: [String] = [], rescuing: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Opened {
        let choice = try BackendChoice.resolve(flag: backend, key: key, services: services, environment: environment)
        var opened = try await open(choice, environment: environment)
        var store = opened.store
        if rescuing, opened.record.backend != Backend.postgres.rawValue {
            let rescueFile: RescueFile
            do { rescueFile = try RescueFile.standard(environment: environment) } catch { throw CLIFailure(error) }
            store = RescuingTokenStore(primary: store, rescueFile: rescueFile, onRescue: RescueWarning.print)
        }
        opened = Opened(store: LabelledTokenStore(store), reason: opened.reason, refreshLock: opened.refreshLock, record: opened.record)
        return opened
    }

    private func open(_ choice: BackendChoice, environment: [String: String]) async throws -> Opened {
        switch choice.backend {
        case .file:
            let store = try fileStore(path: file ?? choice.file, environment: environment)
            return Opened(store: store, reason: "file: \(choice.why)", record: .file(store.path))
        case .postgres:
            #if Postgres
            let key = try PassphraseReader.key(passphraseFile: passphraseFile, environment: environment)
            let opened = try database.open(key: key, scryptLogN: try checkedScryptLogN(), environment: environment)
            return Opened(store: opened.store, reason: "postgres: \(choice.why)", refreshLock: opened.lock, record: LoginRecord(backend: "postgres"))
            #else
            throw DatabaseOptions.notBuiltIn
            #endif
        case .secretService:
            let store = SecretServiceStore(options: .standard(environment: environment), environment: environment)
            return Opened(store: store, reason: "secret-service: \(choice.why)", record: LoginRecord(backend: "secret-service"))
        case .auto:
            let path = file ?? choice.file
            do {
                let decided = try await TokenStores.makeDefault(environment: environment) { () throws(TokenStoreError) -> any TokenStore in
                    do {
                        return try fileStore(path: path, environment: environment)
                    } catch let error as CLIFailure {
                        throw TokenStoreError(code: .missingPassphrase, message: error.message)
                    } catch {
                        throw TokenStoreError(code: .backend, message: "cannot open the encrypted file")
                    }
                }
                let record = (decided.store as? EncryptedFileStore).map { LoginRecord.file($0.path) }
                    ?? LoginRecord(backend: decided.store.backendName)
                return Opened(store: decided.store, reason: decided.reason, record: record)
            } catch {
                throw CLIFailure(error)
            }
        }
    }

    private func fileStore(path given: String?, environment: [String: String]) throws -> EncryptedFileStore {
        let path: String
        if let given {
            guard !given.isEmpty else { throw CLIFailure.usage("--file must not be empty") }
            path = given
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

extension LoginRecord {
    /// The record of an encrypted file at `path`, made absolute (a later command may run in
    /// another directory).
    static func file(_ path: String) -> LoginRecord {
        LoginRecord(backend: "file", file: path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }
}
