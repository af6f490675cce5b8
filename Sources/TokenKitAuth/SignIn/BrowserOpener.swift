import Foundation

/// Shows the sign-in URL to the user: opens a browser, prints it, or (in tests) runs a
/// scripted user agent. ``AuthorizationCodeSignIn`` hands it the one-time loopback start URL,
/// never the authorization URL itself.
///
/// Conformers must return once the URL is handed over (not when the user is done) and must
/// not log it.
public protocol BrowserOpener: Sendable {
    /// Hands `url` to the user.
    func open(_ url: URL) async throws(AuthError)
}

/// Opens URLs the way desktop Linux does: the first program of `$BROWSER` (a `:`-separated
/// list; `%s` in it is replaced by the URL, else the URL is the last argument), else
/// `xdg-open`. The program runs detached from the caller's stdin/stdout (stderr is kept); it is
/// reaped when it exits and never waited for.
///
/// Guarantees: the program's environment is `environment` without the variables named in
/// `withholding` (pass every variable that carries a secret, e.g. the CLI's passphrase and
/// database password: a browser and everything it starts inherit its environment). Throws
/// ``AuthError/Code/invalidConfiguration`` when the program cannot be started. It does not
/// know whether a browser actually showed the page: the sign-in timeout covers that. The URL
/// is in the program's argv, which other local users can read in `/proc`: hand it only URLs
/// that are safe to be seen (the sign-in's one-time start URL).
public struct SystemBrowserOpener: BrowserOpener {
    private let environment: [String: String]
    /// The variables the program does not inherit.
    public let withheld: Set<String>

    /// An opener reading `$BROWSER` and `$PATH` from `environment`, starting the program with
    /// `environment` minus the variables in `withholding`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, withholding: Set<String> = []) {
        self.environment = environment
        self.withheld = withholding
    }

    /// The environment the program is started with: ``withheld`` variables removed.
    public var childEnvironment: [String: String] {
        environment.filter { !withheld.contains($0.key) }
    }

    /// The program and arguments that would open `url`.
    public func command(for url: URL) -> [String] {
        let first = environment["BROWSER"]?.split(separator: ":").first.map(String.init)?.trimmingCharacters(in: .whitespaces)
        guard let first, !first.isEmpty else { return ["xdg-open", url.absoluteString] }
        var words = first.split(separator: " ").map(String.init)
        if words.contains(where: { $0.contains("%s") }) {
            words = words.map { $0.replacingOccurrences(of: "%s", with: url.absoluteString) }
        } else {
            words.append(url.absoluteString)
        }
        return words
    }

    /// Starts the program for `url` and returns.
    public func open(_ url: URL) async throws(AuthError) {
        let words = command(for: url)
        let process = Process()
        if words[0].contains("/") {
            process.executableURL = URL(fileURLWithPath: words[0])
            process.arguments = Array(words.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = words
        }
        process.environment = childEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.terminationHandler = { _ in }
        do {
            try process.run()
        } catch {
            throw .invalidConfiguration("cannot start the browser \"\(words[0])\" (set $BROWSER, or use --no-browser)")
        }
    }
}

/// An opener that calls a closure: e.g. print the URL for `--no-browser`, or run a test's user agent.
public struct ClosureBrowserOpener: BrowserOpener {
    private let body: @Sendable (URL) async throws(AuthError) -> Void

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (URL) async throws(AuthError) -> Void) { self.body = body }

    /// Calls the closure.
    public func open(_ url: URL) async throws(AuthError) { try await body(url) }
}
