import ArgumentParser
import Foundation
import TokenKitSecretService
import TokenKitStore

/// Where a client keeps its session: the same `--backend auto|secret-service|file`,
/// `--file PATH` and `--passphrase-file PATH` options as `tokenkit store`, plus `--profile`
/// (the account name the session is stored under, so several can coexist).
public struct StoreOptions: ParsableArguments {
    /// The `--backend` values.
    public enum Backend: String, ExpressibleByArgument, CaseIterable, Sendable {
        case auto
        case secretService = "secret-service"
        case file
    }

    @Option(help: "Where the session lives: auto (the Secret Service if one answers, else the encrypted file), secret-service, or file.")
    public var backend: Backend = .auto

    @Option(name: .customLong("file"), help: "The encrypted file (default: $XDG_DATA_HOME/tokenkit/credentials.tkstore).")
    public var file: String?

    @Option(help: "A file whose first line is the encrypted file's passphrase (else $TOKENKIT_PASSPHRASE, else a prompt).")
    public var passphraseFile: String?

    @Option(help: "The name the session is stored under.")
    public var profile: String = "default"

    /// Creates the options with their defaults.
    public init() {}

    /// Opens the chosen store. Only reads a passphrase when the encrypted file is used.
    public func open(environment: [String: String] = ProcessInfo.processInfo.environment) async throws(ClientFailure) -> any TokenStore {
        switch backend {
        case .file:
            return try fileStore(environment: environment)
        case .secretService:
            return SecretServiceStore(options: .standard(environment: environment), environment: environment)
        case .auto:
            let choice: TokenStores.Choice
            do throws(TokenStoreError) {
                choice = try await TokenStores.makeDefault(environment: environment) { () throws(TokenStoreError) -> any TokenStore in
                    do throws(ClientFailure) {
                        return try fileStore(environment: environment)
                    } catch {
                        throw TokenStoreError(code: .missingPassphrase, message: error.message)
                    }
                }
            } catch {
                throw ClientFailure("credential store: \(error.message)")
            }
            return choice.store
        }
    }

    /// The key the session of `app` is stored under: service `app`, account ``profile``.
    public func key(app: String) throws(ClientFailure) -> CredentialKey {
        do { return try CredentialKey(service: app, account: profile) } catch { throw ClientFailure("--profile: \(error.message)", status: 2) }
    }

    private func fileStore(environment: [String: String]) throws(ClientFailure) -> EncryptedFileStore {
        let path: String
        if let file {
            guard !file.isEmpty else { throw ClientFailure("--file must not be empty", status: 2) }
            path = file
        } else {
            do { path = try EncryptedFileStore.defaultPath(environment: environment) } catch { throw ClientFailure(error.message) }
        }
        let passphrase: String
        if let passphraseFile {
            passphrase = try SecretInput.firstLine(ofFile: passphraseFile)
        } else if let value = environment["TOKENKIT_PASSPHRASE"], !value.isEmpty {
            passphrase = value
        } else {
            passphrase = try SecretInput.read(prompt: "Passphrase for the credential file")
        }
        do {
            return EncryptedFileStore(path: path, key: try FileStoreKey.passphrase(passphrase))
        } catch {
            throw ClientFailure("credential store: \(error.message)")
        }
    }
}
