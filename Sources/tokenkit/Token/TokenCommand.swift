import ArgumentParser
import Foundation
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession

/// `tokenkit token`: prints a valid access token for a stored credential, refreshing it
/// through the OAuth 2.0 refresh_token grant when it is expired or within the skew.
///
/// Guarantees: stdout receives the access token and a newline, and nothing else, only after
/// a rotated token set was saved. Concurrent invocations sharing one stored credential refresh
/// once (a file lock under `$XDG_RUNTIME_DIR/tokenkit`, else `/tmp/tokenkit-<uid>` — or, with
/// `--backend postgres`, a PostgreSQL advisory lock shared by every host — and a re-read of
/// the store after taking it). A rejected refresh token removes the stored
/// credential and exits 1. Secrets are never taken from arguments and never printed in errors.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token for a stored credential, refreshing it first when needed.",
        discussion: """
            The credential is a token set (as stored by `tokenkit store put --token-set`). When its \
            access token expires within --skew seconds (a JWT's own exp wins over the stored \
            expires_at), the refresh token is sent to --token-endpoint (https, or http on a loopback \
            address), the new token set is saved, and then the access token is printed. \
            The request must finish within --timeout seconds in total (default 30). Tokens outside \
            their RFC 6749/6750 character sets are refused (exit 2) and never saved or printed. An \
            answer without expires_in is treated as valid for 5 minutes. \
            After `tokenkit login` no endpoint or client flags are needed: the token endpoint, \
            client id and client authentication are stored with the login (the method and the path \
            of the --client-secret-file or --client-key file, never the secret or key, which is read \
            again from that file and only sent to the stored token endpoint). \
            Exit codes: 0 token printed; 1 sign-in required (nothing stored, or the refresh token was \
            rejected: the stored credential is then removed) or the refresh was refused; 2 I/O, \
            network, storage or key error; 64 usage error. \
            With --grant client-credentials the token is the service's own: acquired with the \
            client's secret (--client-secret-file, sent as --client-auth basic or post) or key \
            (--client-key, private_key_jwt), cached in the store, and re-acquired once (across \
            processes) when it expires within --skew seconds; 1 then also means the server refused \
            the client.
            """)

    @OptionGroup var key: CredentialKeyOptions

    @Option(name: .customLong("token-endpoint"), help: "The OAuth 2.0 token endpoint URL (https; http only for loopback addresses); default: the one stored by `tokenkit login`.")
    var tokenEndpoint: String?

    @Option(name: .customLong("client-id"), help: "The OAuth client id; default: the one stored by `tokenkit login`.")
    var clientID: String?

    @OptionGroup var clientAuth: ClientAuthOptions

    @Option(help: "Refresh when the access token expires within this long: seconds, or 90s, 5m, 1h (default: 60 seconds).")
    var skew: DurationArgument?

    @OptionGroup var client: ClientOptions

    @Option(help: "The longest the token endpoint request may take in total, in seconds (default: 30); other processes waiting for this refresh wait 15 s longer.")
    var timeout: Int64?

    @OptionGroup var backend: BackendOptions

    /// The total request deadline when `--timeout` is not given.
    static let defaultTimeoutSeconds: Int64 = 30
    /// How long a token endpoint answer without `expires_in` (and not a JWT with `exp`) is
    /// used before it is refreshed again: 5 minutes.
    static let assumedLifetimeSeconds: Int64 = 300

    /// The skew when `--skew` is not given.
    static let defaultSkewSeconds: Int64 = 60
    /// The longest skew accepted (a day).
    static let maximumSkewSeconds: Int64 = 86_400

    func run() async throws {
        try await reportingAllFailures {
            try await printToken()
        }
    }

    /// Checks the arguments, opens the store, and prints the token.
    private func printToken() async throws {
        let credentialKey = try key.key()
        let skewSeconds = skew?.seconds ?? Self.defaultSkewSeconds
        guard skewSeconds <= Self.maximumSkewSeconds else {
            throw CLIFailure.usage("--skew must be at most \(Self.maximumSkewSeconds) seconds")
        }
        let timeoutSeconds = timeout ?? Self.defaultTimeoutSeconds
        guard (1...600).contains(timeoutSeconds) else {
            throw CLIFailure.usage("--timeout must be 1 to 600 seconds")
        }
        try clientAuth.checkUsage()
        try client.checkUsage(clientAuth: clientAuth)
        let flagged = try clientAuth.fromFlags()
        let environment = ProcessInfo.processInfo.environment
        let opened = try await backend.openStore(key: credentialKey, rescuing: true, environment: environment)
        let http = try HTTPTransports.urlSession(timeout: .seconds(timeoutSeconds))
        let discovered = try await client.discoveredTarget(tokenEndpoint: tokenEndpoint, clientID: clientID, transport: http)
        let (endpoint, clientID): (URL, String)
        var idTokenIssuer: IDTokenIssuer?
        var authentication = flagged ?? .publicClient
        if let discovered {
            (endpoint, clientID, idTokenIssuer) = discovered
        } else {
            let stored: LoginConfiguration?
            (endpoint, clientID, stored) = try await refreshTarget(store: opened.store, key: credentialKey)
            // The stored client authentication goes only to the stored token endpoint and client.
            if flagged == nil, let stored, stored.tokenEndpoint == endpoint, stored.clientID == clientID {
                authentication = try ClientAuthOptions.stored(stored)
            }
        }
        let grant = try client.refresher(
            endpoint: endpoint, clientID: clientID, authentication: authentication.authentication, transport: http,
            requestTimeout: .seconds(timeoutSeconds), assumedLifetime: .seconds(Self.assumedLifetimeSeconds),
            idTokenIssuer: idTokenIssuer)
        // A waiter outlasts the holder's whole request deadline, then takes its turn: the same
        // wait for the per-host file lock and for a backend's own (PostgreSQL) lock.
        let lockWait = Duration.seconds(timeoutSeconds) + (FileRefreshLock.defaultTimeout - HTTPTransportRequest.defaultTimeout)
        let provider = AuthProvider(
            store: opened.store, key: credentialKey, refresher: grant, skew: .seconds(skewSeconds),
            lock: opened.refreshLock?(lockWait) ?? FileRefreshLock(
                directory: FileRefreshLock.defaultDirectory(environment: environment), timeout: lockWait))
        let token = try await provider.validAccessToken()
        StandardStreams.printOutput(token)
    }

    /// The token endpoint and client id: from the flags, else from the login stored under
    /// `key` by `tokenkit login` (flags win), with that stored configuration when it was read.
    /// Nothing stored: sign-in required (exit 1).
    private func refreshTarget(store: any TokenStore, key: CredentialKey) async throws -> (URL, String, LoginConfiguration?) {
        var stored: LoginConfiguration?
        if tokenEndpoint == nil || clientID == nil {
            let credential: Credential?
            do { credential = try await store.load(key) } catch { throw CLIFailure(error) }
            guard let credential else { throw AuthError.signInRequired("no credential is stored for \(key)") }
            stored = try (try? credential.tokenSet()).flatMap { tokenSet throws(AuthError) in try LoginConfiguration(storedIn: tokenSet) }
            guard stored != nil else {
                throw CLIFailure.usage("--token-endpoint and --client-id are required: no login configuration is stored for \(key)")
            }
        }
        let endpoint: URL
        if let tokenEndpoint {
            guard let url = URL(string: tokenEndpoint) else {
                throw CLIFailure.usage("--token-endpoint is not a valid URL")
            }
            endpoint = url
        } else if let url = stored?.tokenEndpoint {
            endpoint = url
        } else {
            throw CLIFailure.usage("--token-endpoint is required")
        }
        guard let id = clientID ?? stored?.clientID else { throw CLIFailure.usage("--client-id is required") }
        return (endpoint, id, stored)
    }
}
