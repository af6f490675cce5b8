import ArgumentParser
import Foundation
import TokenKitAuth
internal import TokenKitPrimitives

/// How the client authenticates to the authorization server: `--client-secret-file` (sent as
/// `--client-auth basic` or `post`) or `--client-key` (`private_key_jwt`, RFC 7523). The one
/// option block `tokenkit login`, `token` and `logout` share, so the three read secrets and
/// keys the same way: from files that other users cannot read (``ClientSecretFile``,
/// ``ClientKeyFile``), never from arguments.
struct ClientAuthOptions: ParsableArguments {
    /// The `--client-auth` values for a client secret.
    enum SecretMethod: String, ExpressibleByArgument, CaseIterable {
        case basic
        case post
    }

    @Option(
        name: .customLong("client-secret-file"),
        help: "A file holding the client secret (mode 0600; - reads stdin), sent with HTTP Basic unless --client-auth post; without it (and --client-key) the client is public.")
    var clientSecretFile: String?

    @Option(
        name: .customLong("client-key"),
        help: "A private key file (PEM or JWK, mode 0600) for private_key_jwt client authentication (RFC 7523).")
    var clientKey: String?

    @Option(
        name: .customLong("client-auth"),
        help: "How --client-secret-file is sent: basic (client_secret_basic, the default) or post (client_secret_post).")
    var clientAuth: SecretMethod?

    /// A client authentication and the file it was read from.
    struct Resolved: Sendable {
        /// How the client authenticates.
        let authentication: ClientAuthentication
        /// The absolute path of the secret or key file; `nil` for a public client or a secret
        /// read from stdin. `tokenkit login` stores it (the path, never the contents).
        let file: String?

        /// A public client.
        static let publicClient = Resolved(authentication: .none, file: nil)
    }

    /// Whether `--client-secret-file` or `--client-key` was given.
    var given: Bool { clientSecretFile != nil || clientKey != nil }

    /// Refuses conflicting flags (exit 64) before anything is read.
    func checkUsage() throws {
        if clientKey != nil, clientSecretFile != nil {
            throw CLIFailure.usage("use either --client-secret-file or --client-key, not both")
        }
        if clientAuth != nil, clientSecretFile == nil {
            throw CLIFailure.usage("--client-auth needs --client-secret-file")
        }
    }

    /// The authentication the flags ask for, `nil` when none was given. Conflicts exit 64;
    /// unreadable, unsafe (group/other-accessible) or unusable files exit 2.
    func fromFlags() throws -> Resolved? {
        try checkUsage()
        if let clientKey {
            return Resolved(authentication: try Self.privateKeyJWT(clientKey), file: Self.absolute(clientKey))
        }
        guard let clientSecretFile else { return nil }
        let secret = try ClientSecretFile.read(clientSecretFile)
        return Resolved(
            authentication: Self.secretAuthentication(secret, post: clientAuth == .post),
            file: clientSecretFile == "-" ? nil : Self.absolute(clientSecretFile))
    }

    /// The authentication a login was stored with: its method, with the secret or key read
    /// again from the stored file (same checks as the flags). A confidential login stored
    /// without a file (the secret came from stdin) or an unknown method exits 64, naming the
    /// flag to give.
    static func stored(_ configuration: LoginConfiguration) throws -> Resolved {
        let method = configuration.authMethod
        switch ExactKey(method) {  // the stored method name, byte for byte
        case "none":
            return .publicClient
        case "private_key_jwt":
            guard let path = configuration.clientCredentialFile else {
                throw CLIFailure.usage("the stored login authenticates with private_key_jwt: give --client-key")
            }
            return Resolved(authentication: try privateKeyJWT(path), file: path)
        case "client_secret_basic", "client_secret_post":
            guard let path = configuration.clientCredentialFile else {
                throw CLIFailure.usage("the stored login authenticates with \(method): give --client-secret-file")
            }
            let secret = try ClientSecretFile.read(path)
            return Resolved(authentication: secretAuthentication(secret, post: method.isByteIdentical(to: "client_secret_post")), file: path)
        default:
            throw CLIFailure.usage("the stored login uses an unknown client authentication method")
        }
    }

    /// A client secret sent as `client_secret_post` or (otherwise) `client_secret_basic`.
    private static func secretAuthentication(_ secret: String, post: Bool) -> ClientAuthentication {
        post ? .clientSecretPost(secret: secret) : .clientSecretBasic(secret: secret)
    }

    private static func privateKeyJWT(_ path: String) throws -> ClientAuthentication {
        let key = try ClientKeyFile.read(path)
        do { return try ClientAuthentication.privateKeyJWT(key: key) } catch {
            throw CLIFailure.io("unusable key in the client key file \(path): \(error.message)")
        }
    }

    /// `path` made absolute against the current directory (a stored path must not depend on
    /// where a later command runs).
    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
