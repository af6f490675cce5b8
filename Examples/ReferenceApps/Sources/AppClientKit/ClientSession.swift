import Foundation
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession

/// One app's stored session: the ``TokenStore`` entry, an ``AuthProvider`` that refreshes
/// it through `POST /auth/refresh`, and API clients with and without the bearer token.
///
/// Guarantees: the session is read from and written to the store only (never a file of
/// its own, never argv); ``authorized`` attaches a valid access token to every request and,
/// on a 401, refreshes once and retries once; a rejected refresh token clears the stored
/// session and surfaces as ``ClientFailure/signedOut(_:)``.
public struct ClientSession: Sendable {
    /// The store the session lives in.
    public let store: any TokenStore
    /// Where in the store.
    public let key: CredentialKey
    /// Hands out valid access tokens.
    public let provider: AuthProvider
    /// Requests without a bearer token (sign-in, registration).
    public let anonymous: APIClient
    /// Requests with the bearer token.
    public let authorized: APIClient
    /// How many refreshes this process made (calls that reached `POST /auth/refresh`).
    public let refreshes: RefreshCounter

    /// Opens the session of `app` (the store's service name) for the server at `server`.
    ///
    /// - Parameter transport: The plain transport (default: URLSession with a 10 s timeout).
    public init(app: String, server: URL, options: StoreOptions, transport: (any HTTPTransport)? = nil) async throws(ClientFailure) {
        let base = transport ?? URLSessionTransport(timeout: .seconds(10))
        store = try await options.open()
        key = try options.key(app: app)
        let counter = RefreshCounter()
        refreshes = counter
        provider = AuthProvider(
            store: store, key: key,
            refresher: CountingRefresher(base: RefreshEndpoint(baseURL: server, transport: base), counter: counter),
            skew: .seconds(2))
        anonymous = APIClient(baseURL: server, transport: base)
        authorized = APIClient(baseURL: server, transport: AuthorizingHTTPTransport(wrapping: base, provider: provider))
    }

    /// Posts `body` to the sign-in endpoint `path` and stores the answer's tokens, with the
    /// metadata `describe` picks from the answer, as the session. Returns the answer.
    @discardableResult
    public func logIn(
        _ path: String, body: [String: any Sendable], describe: ([String: Any]) throws -> [String: String]
    ) async throws -> [String: Any] {
        guard let answer = try await anonymous.send("POST", path, body: body).object else {
            throw ClientFailure("the server's sign-in answer is not a JSON object")
        }
        try await signIn(answer, metadata: try describe(answer))
        return answer
    }

    /// ``signOut()``, said in one line: `signed out` or `not signed in`.
    public func logOut() async throws -> String {
        try await signOut() ? "signed out" : "not signed in"
    }

    /// Stores the tokens of a login answer (with `metadata`) as the session.
    public func signIn(_ answer: [String: Any], metadata: [String: String]) async throws {
        var tokens = try LoginTokens.tokenSet(from: answer)
        tokens.metadata = metadata
        try await provider.signIn(tokens)
    }

    /// The stored token set, or `nil` when signed out.
    public func stored() async throws -> TokenSet? {
        guard let credential = try await store.load(key) else { return nil }
        return try credential.tokenSet()
    }

    /// Ends the session: tells the server (`POST /auth/logout`, best effort) and deletes it
    /// from the store. Returns `false` when no session was stored.
    public func signOut() async throws -> Bool {
        guard let tokens = try await stored() else { return false }
        if let refresh = tokens.refreshToken {
            _ = try? await anonymous.raw("POST", "/auth/logout", body: ["refresh_token": refresh])
        }
        try await provider.signOut()
        return true
    }
}

/// A thread-safe count of refresh attempts.
public final class RefreshCounter: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0

    /// Zero.
    public init() {}

    /// The count so far.
    public var count: Int { lock.withLock { value } }

    func add() { lock.withLock { value += 1 } }
}

/// Counts the calls to a refresher (made at most once per refresh by ``AuthProvider``).
struct CountingRefresher: TokenRefresher {
    let base: any TokenRefresher
    let counter: RefreshCounter

    func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet {
        counter.add()
        return try await base.refresh(tokenSet)
    }
}
