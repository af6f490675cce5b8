import ArgumentParser
import Foundation
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession

/// `tokenkit login`: obtains a login (authorization code + PKCE through the browser and a
/// loopback redirect, or the device authorization grant) and stores it with its configuration.
///
/// Guarantees: nothing on stdout; on success one stderr line naming the subject and e-mail
/// (when a validated ID token told them, so a swapped account is visible) and the backend,
/// exit 0. Denied, expired, a bad `iss`/ID token, a start URL opened twice: exit 1 with one
/// `error:` line, nothing stored (a callback with a wrong `state` is ignored). Network or
/// server failure, or an answer the token-response gate refuses: exit 2. The browser is given
/// the one-time loopback start URL (never the authorization URL) and an environment without
/// the variables that carry secrets (``SecretEnvironment``). Secrets and keys come from files
/// that other users cannot read, never from arguments; only their paths are stored.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in (browser + PKCE, or device code) and store the login.",
        discussion: """
            Default: opens the browser ($BROWSER, else xdg-open) on a one-time start URL, \
            http://127.0.0.1:PORT/start/RANDOM, which redirects once to the authorization URL (so \
            state, PKCE challenge and nonce never appear in a command line), and waits for the \
            redirect on http://127.0.0.1:PORT/callback. A second request for the start URL is \
            answered 410 and ends the sign-in (exit 1): someone else opened it. Callbacks with a \
            wrong or missing state are answered 400 and ignored. The browser's environment has no \
            TOKENKIT_PASSPHRASE or PGPASSWORD. --no-browser prints the start URL on stderr \
            instead; --device prints the verification URI (https, or http on loopback, else exit \
            2) and user code on stderr and polls. \
            The client authenticates with --client-secret-file (--client-auth basic or post) or \
            --client-key (private_key_jwt, RFC 7523), or not at all (a public client). \
            The issuer, endpoints, client id and auth method are stored with the tokens, with the \
            path of the secret or key file (never its contents; a secret read from stdin is not \
            stored), so `tokenkit token` and `tokenkit logout` need no endpoint or client flags \
            afterwards. \
            Exit codes: 0 signed in (stderr names the subject, and the e-mail when the ID token has \
            one); 1 denied, expired, a bad iss/ID token, or the start URL opened twice; 2 network, \
            server or storage failure, or a token answer refused; 64 usage error.
            """)

    @OptionGroup var key: CredentialKeyOptions
    @OptionGroup var endpoints: LoginEndpointOptions

    @OptionGroup var clientAuth: ClientAuthOptions

    @Option(name: .customLong("scope"), help: "A scope to request (repeat for several; openid turns on ID-token validation).")
    var scopes: [String] = []

    @Flag(help: "Use the device authorization grant (RFC 8628) instead of the browser.")
    var device = false

    @Flag(name: .customLong("no-browser"), help: "Print the authorization URL on stderr instead of opening a browser.")
    var noBrowser = false

    @Option(name: .customLong("redirect-port"), help: "The loopback port for the redirect (default: an ephemeral port).")
    var redirectPort: UInt16?

    @Option(help: "How long to wait for the browser or the device approval: seconds, or 90s, 5m (default: 5m).")
    var timeout: DurationArgument?

    @OptionGroup var backend: BackendOptions

    func run() async throws {
        try await reportingAllFailures(signIn: true) {
            try await signIn()
        }
    }

    private func signIn() async throws {
        let credentialKey = try key.key()
        guard !(device && noBrowser) else { throw CLIFailure.usage("--device and --no-browser exclude each other") }
        let seconds = timeout?.seconds ?? 300
        guard (1...86_400).contains(seconds) else { throw CLIFailure.usage("--timeout must be 1 second to 1 day") }
        try clientAuth.checkUsage()
        let client = try clientAuth.fromFlags() ?? .publicClient
        let authentication = client.authentication
        let environment = ProcessInfo.processInfo.environment
        let opened = try await backend.openStore(key: credentialKey, rescuing: true, environment: environment)
        // Before the server is contacted: a store that cannot take the login fails the login now.
        try await opened.checkWritable()
        let transport = try HTTPTransports.urlSession(timeout: .seconds(30))
        let configuration = try await endpoints.configuration(authMethod: authentication.methodName, credentialFile: client.file, transport: transport)
        let tokenSet: TokenSet
        if device {
            let flow = try DeviceCodeSignIn(configuration: configuration, scopes: scopes, clientAuthentication: authentication, transport: transport)
            // The deadline covers the device authorization request too: a server that never
            // answers ends the login after --timeout like a user who never approves.
            tokenSet = try await withDeadline(seconds: seconds) {
                let authorization = try await flow.start()
                var line = "To sign in, open \(authorization.verificationURI) and enter the code \(authorization.userCode)"
                if let complete = authorization.verificationURIComplete { line += " (or open \(complete))" }
                StandardStreams.writeError(line)
                return try await flow.waitForApproval(authorization)
            }
        } else {
            let opener: any BrowserOpener = noBrowser
                ? ClosureBrowserOpener { url in StandardStreams.writeError("Open this URL in a browser to sign in: \(url.absoluteString)") }
                : SystemBrowserOpener(environment: environment, withholding: SecretEnvironment.names)
            let flow = try AuthorizationCodeSignIn(
                configuration: configuration, scopes: scopes, clientAuthentication: authentication, transport: transport,
                opener: opener, redirectPort: redirectPort ?? 0, timeout: .seconds(seconds))
            tokenSet = try await flow.signIn()
        }
        do { try await opened.store.save(Credential(tokenSet: tokenSet), for: credentialKey) } catch { throw CLIFailure(error) }
        LoginRecording.record(opened.record, for: credentialKey, environment: environment)
        var who = tokenSet.metadata["login.subject"].map { " as \($0)" } ?? ""
        if let email = tokenSet.metadata["login.email"] { who += " (\(email))" }
        StandardStreams.writeError("signed in\(who) to \(credentialKey) (stored in \(opened.store.backendName))")
    }

    /// Runs `body`, failing with ``AuthError/Code/signInExpired`` after `seconds`.
    private func withDeadline(seconds: Int64, _ body: @escaping @Sendable () async throws -> TokenSet) async throws -> TokenSet {
        try await withThrowingTaskGroup(of: TokenSet?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw AuthError(code: .signInExpired, message: "sign-in timed out after \(seconds) seconds")
            }
            return result
        }
    }
}
