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
            The revocation request authenticates the client as the login did (its stored method \
            and secret or key file), unless --client-secret-file or --client-key is given. \
            Exit codes: 0 deleted (a failed revocation is reported as a warning); 1 nothing stored; \
            2 storage failure; 64 usage error.
            """)

    @OptionGroup var key: CredentialKeyOptions

    @Flag(name: .customLong("no-revoke"), help: "Delete the stored login without contacting the server.")
    var noRevoke = false

    @OptionGroup var clientAuth: ClientAuthOptions

    @OptionGroup var backend: BackendOptions

    func run() async throws {
        try await reportingAllFailures(signIn: true) {
            try await signOut()
        }
    }

    private func signOut() async throws {
        let credentialKey = try key.key()
        let flagged = try clientAuth.fromFlags()
        let environment = ProcessInfo.processInfo.environment
        // Rescuing: a login kept in the rescue file is revoked and deleted there too.
        let opened = try await backend.openStore(key: credentialKey, rescuing: true, environment: environment)
        let transport = try HTTPTransports.urlSession(timeout: .seconds(30))
        let outcome = try await SignOut.run(store: opened.store, key: credentialKey, revoke: !noRevoke) { configuration throws(AuthError) in
            guard let endpoint = configuration.revocationEndpoint else { return nil }
            let client: ClientAuthOptions.Resolved
            if let flagged {
                client = flagged
            } else {
                // The login's own client authentication; if its file cannot be read any more,
                // revocation fails (a warning) and the login is still deleted.
                do { client = try ClientAuthOptions.stored(configuration) } catch {
                    let reason = (error as? CLIFailure)?.message ?? "\(type(of: error))"
                    throw .invalidConfiguration("cannot authenticate the revocation request: \(reason)")
                }
            }
            return try TokenRevocation(
                endpoint: endpoint, clientID: configuration.clientID, clientAuthentication: client.authentication,
                tokenEndpoint: configuration.tokenEndpoint, transport: transport)
        }
        if let failure = outcome.revocationError {
            StandardStreams.writeError("warning: \(failure.message); the local login was deleted anyway")
        }
        guard outcome.deleted else {
            throw CLIFailure.rejected("nothing is stored for \(credentialKey)")
        }
        LoginRecording.forget(credentialKey, deletedFrom: opened.record, environment: environment)
        StandardStreams.writeError("signed out of \(credentialKey) (\(outcome.revoked && outcome.revocationError == nil ? "revoked, " : "")deleted from \(opened.store.backendName))")
    }
}
