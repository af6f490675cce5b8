import ArgumentParser
import Foundation
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession

/// `tokenkit logout`: revokes the stored login (refresh token first, RFC 7009) when a
/// revocation endpoint is known, then deletes it whatever revocation did.
///
/// Guarantees: exit 0 when the stored login was deleted (a failed revocation is one `warning:`
/// line on stderr); nothing stored: exit 1; store failure: exit 2.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke and delete a stored login.",
        discussion: """
            Exit codes: 0 deleted (a failed revocation is reported as a warning); 1 nothing stored; \
            2 storage failure; 64 usage error.
            """)

    @OptionGroup var key: CredentialKeyOptions

    @Flag(name: .customLong("no-revoke"), help: "Delete the stored login without contacting the server.")
    var noRevoke = false

    @Option(name: .customLong("client-secret-file"), help: "A file holding the client secret, for confidential clients' revocation requests.")
    var clientSecretFile: String?

    @OptionGroup var backend: BackendOptions

    func run() async throws {
        try await reportingFailures {
            do {
                try await signOut()
            } catch {
                throw LoginFailure.from(error)
            }
        }
    }

    private func signOut() async throws {
        let credentialKey = try key.key()
        let authentication = try clientSecretFile.map { .clientSecretBasic(secret: try ClientSecretFile.read($0)) } ?? ClientAuthentication.none
        let opened = try await backend.openStore()
        let transport = URLSessionTransport(timeout: 30)
        let outcome = try await SignOut.run(store: opened.store, key: credentialKey, revoke: !noRevoke) { configuration throws(AuthError) in
            guard let endpoint = configuration.revocationEndpoint else { return nil }
            return try TokenRevocation(endpoint: endpoint, clientID: configuration.clientID, clientAuthentication: authentication, transport: transport)
        }
        if let failure = outcome.revocationError {
            StandardStreams.writeError("warning: \(StandardStreams.oneLine(failure.message)); the local login was deleted anyway")
        }
        guard outcome.deleted else {
            throw CLIFailure.rejected("nothing is stored for \(credentialKey)")
        }
        StandardStreams.writeError(StandardStreams.oneLine("signed out of \(credentialKey) (\(outcome.revoked && outcome.revocationError == nil ? "revoked, " : "")deleted from \(opened.store.backendName))"))
    }
}
