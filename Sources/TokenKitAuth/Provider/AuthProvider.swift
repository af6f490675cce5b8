import Foundation
import Logging
import TokenKitStore

/// Hands out valid access tokens for one stored credential, refreshing it when needed.
///
/// Guarantees:
/// - ``validAccessToken()`` returns the current access token unless it expires within
///   ``skew``. Expiry is the JWT's `exp` when the access token is a JWT, else the stored
///   `expires_at`; a token with neither is used until the server rejects it.
/// - Single flight: concurrent callers share one store read and at most one refresh; its
///   result or its error reaches all of them. Cancelling one waiter returns
///   ``AuthError/Code/cancelled`` to that waiter only; the refresh goes on for the others.
/// - The refreshed token set is saved with a compare-and-swap against the credential that
///   was refreshed *before* any caller receives it. A rejected refresh token
///   (``AuthError/Code/signInRequired``) clears the stored credential (only if it is still
///   the one that was refreshed) and every waiter gets that error.
/// - With a ``RefreshLock``, refreshes across processes are serialized and the store is
///   re-read after taking the lock: if another process already refreshed, its token set is
///   used and the server is not called.
/// - A failed refresh is not cached: the next call tries again, subject to ``RefreshBackoff``.
/// - With a ``TokenAcquirer`` as refresher (the client credentials grant), nothing stored or
///   no refresh token is not a sign-in error: the provider acquires a new token set, with the
///   same single flight, lock, re-read and compare-and-swap as a refresh; a stored set the
///   acquirer does not accept (cached for another configuration) is never handed out.
/// - Tokens never appear in errors, events or log messages, and an access token is handed
///   out only if it is an RFC 6750 Bearer token (``TokenCharacterSet``), stored or refreshed.
/// - Each call to the token endpoint (refresh or client credentials acquisition) runs in a
///   `tokenkit.refresh` span, a child of the span of the caller that started it (so a
///   refresh triggered by a request shows inside that request's trace), and is counted in
///   `tokenkit_refreshes_total{outcome}`, timed in `tokenkit_refresh_duration_seconds`, and
///   its number of waiting callers recorded in `tokenkit_refresh_waiters` (see
///   ``RefreshMetrics``; the metrics backend is the one bootstrapped when the provider was
///   created).
///
/// It does not guarantee that a returned token is accepted by the server (it may have been
/// revoked); use ``refreshAfterRejection(of:)`` (or ``AuthorizingHTTPTransport``) on a 401.
/// The credential is read from the store once and then cached: a sign-out by another process
/// is noticed at the next refresh, not before.
public actor AuthProvider {
    /// The stored credential this provider manages.
    public nonisolated let key: CredentialKey
    /// How long before expiry a token is already treated as expired.
    public nonisolated let skew: Duration
    private let store: any TokenStore
    private let refresher: any TokenRefresher
    /// The refresher when it can also acquire without a refresh token (client credentials).
    private let acquirer: (any TokenAcquirer)?
    private let clock: any TokenClock
    private let lock: (any RefreshLock)?
    private let backoff: RefreshBackoff
    private let logger: Logger?
    private let metrics = RefreshMetrics()

    /// The last credential read from or written to the store.
    private var current: CurrentCredential?
    /// Callers waiting for the operation in flight; `nil` when none is running.
    private var waiters: [UInt64: CheckedContinuation<Result<CurrentCredential, AuthError>, Never>]?
    private var nextID: UInt64 = 0
    private var failures = 0
    private var lastFailure: AuthError?
    private var retryNotBefore: Date?
    private var subscribers: [UInt64: AsyncStream<AuthEvent>.Continuation] = [:]
    /// Whether the operation in flight called the token endpoint (for the waiters metric).
    private var operationCalledEndpoint = false

    /// Creates a provider for the credential stored under `key` in `store`.
    ///
    /// - Parameters:
    ///   - refresher: Called (at most once per refresh) with the stored token set.
    ///   - skew: Tokens expiring within this interval are refreshed first (default 60 s).
    ///     Pick it below the server's token lifetime: a token that lives shorter than the skew
    ///     is already "expiring" when issued, so every call refreshes it (one at a time).
    ///   - clock: The source of time for expiry and backoff decisions.
    ///   - lock: Coordinates refreshes with other processes sharing `store`; `nil` for none.
    ///   - backoff: The delay policy after refreshes fail in a row.
    ///   - logger: Receives state changes and failure reasons, never tokens.
    public init(
        store: any TokenStore,
        key: CredentialKey,
        refresher: any TokenRefresher,
        skew: Duration = .seconds(60),
        clock: any TokenClock = SystemClock(),
        lock: (any RefreshLock)? = nil,
        backoff: RefreshBackoff = .standard,
        logger: Logger? = nil
    ) {
        self.store = store
        self.key = key
        self.refresher = refresher
        self.acquirer = refresher as? any TokenAcquirer
        self.skew = max(.zero, skew)
        self.clock = clock
        self.lock = lock
        self.backoff = backoff
        self.logger = logger
    }

    /// A valid access token: the current one, or a refreshed one when it expires within ``skew``.
    ///
    /// Throws ``AuthError/Code/signInRequired`` when nothing is stored or the refresh token was
    /// rejected; other codes for network, store, lock or server failures.
    public func validAccessToken() async throws(AuthError) -> String {
        try await validToken().value
    }

    /// Like ``validAccessToken()``, with the token's type and DPoP key (for DPoP-bound logins).
    public func validToken() async throws(AuthError) -> AccessToken {
        if waiters == nil, let current, !isExpiring(current.tokenSet) {
            return AccessToken(current.tokenSet)
        }
        return AccessToken(try await runOrJoin(rejected: nil).tokenSet)
    }

    /// Call when the server rejected `token` (HTTP 401). Refreshes only when `token` is still
    /// the current access token, so a burst of rejections of one token causes one refresh;
    /// otherwise returns the newer current token.
    public func refreshAfterRejection(of token: String) async throws(AuthError) -> String {
        try await tokenAfterRejection(of: token).value
    }

    /// Like ``refreshAfterRejection(of:)``, with the token's type and DPoP key.
    public func tokenAfterRejection(of token: String) async throws(AuthError) -> AccessToken {
        if waiters != nil {
            let joined = try await join().tokenSet
            if joined.accessToken != token { return AccessToken(joined) }
        } else if let current, current.tokenSet.accessToken != token {
            return AccessToken(current.tokenSet)
        }
        return AccessToken(try await runOrJoin(rejected: token).tokenSet)
    }

    /// Stores `tokenSet` as the credential (replacing any) and reports ``AuthEvent/Kind/signedIn``.
    public func signIn(_ tokenSet: TokenSet) async throws(AuthError) {
        let credential = Credential(tokenSet: tokenSet)
        do throws(TokenStoreError) { try await store.save(credential, for: key) } catch { throw .store(error) }
        current = CurrentCredential(credential: credential, tokenSet: tokenSet)
        failures = 0
        retryNotBefore = nil
        logger?.info("signed in", metadata: ["credential": "\(key)"])
        publish(.signedIn, expiresAt: accessTokenExpiry(of: tokenSet))
    }

    /// Deletes the stored credential and reports ``AuthEvent/Kind/signedOut``. A refresh that
    /// is in flight will not write its result back (its compare-and-swap fails).
    public func signOut() async throws(AuthError) {
        do throws(TokenStoreError) { try await store.delete(key) } catch { throw .store(error) }
        current = nil
        logger?.info("signed out", metadata: ["credential": "\(key)"])
        publish(.signedOut, expiresAt: nil)
    }

    /// A stream of state changes from now on. Each call returns a new independent
    /// subscription; events are buffered per subscriber (the newest 100 are kept).
    public func events() -> AsyncStream<AuthEvent> {
        let id = takeID()
        let (stream, continuation) = AsyncStream.makeStream(of: AuthEvent.self, bufferingPolicy: .bufferingNewest(100))
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// How many callers wait for the operation in flight (observed by tests).
    var waiterCount: Int { waiters?.count ?? 0 }
    /// How many event subscriptions are live (observed by tests).
    var subscriberCount: Int { subscribers.count }

    // MARK: - Single flight

    /// Starts the store/refresh operation unless one is running, then waits for its result.
    private func runOrJoin(rejected: String?) async throws(AuthError) -> CurrentCredential {
        if waiters == nil {
            waiters = [:]
            let known = current
            Task {
                let result = await self.resolve(known: known, rejected: rejected)
                self.finish(result)
            }
        }
        return try await join()
    }

    /// Waits for the operation in flight; a cancelled waiter leaves with ``AuthError/cancelled``.
    private func join() async throws(AuthError) -> CurrentCredential {
        let id = takeID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<CurrentCredential, AuthError>, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: .failure(.cancelled))
                } else if waiters == nil {
                    // Nothing in flight (cannot happen while callers check first): report the present state.
                    continuation.resume(returning: current.map { .success($0) }
                        ?? .failure(.signInRequired("no credential is stored for \(key)")))
                } else {
                    waiters?[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
        return try result.get()
    }

    private func cancelWaiter(_ id: UInt64) {
        waiters?.removeValue(forKey: id)?.resume(returning: .failure(.cancelled))
    }

    /// Records the operation's outcome and hands it to every waiter.
    private func finish(_ result: Result<CurrentCredential, AuthError>) {
        switch result {
        case .success(let credential):
            if let previous = current, !previous.credential.hasSameSecret(as: credential.credential) {
                publish(.refreshed, expiresAt: accessTokenExpiry(of: credential.tokenSet))
            }
            current = credential
            failures = 0
            retryNotBefore = nil
        case .failure(let error) where error.code == .signInRequired:
            if current != nil { publish(.signedOut, expiresAt: nil) }
            current = nil
            failures = 0
            retryNotBefore = nil
        case .failure(let error) where error.code == .retryLater || error.code == .cancelled:
            break
        case .failure(let error):
            failures += 1
            lastFailure = error
            if let delay = backoff.delay(afterFailures: failures) {
                retryNotBefore = clock.now + delay
            }
        }
        let waiting = waiters ?? [:]
        waiters = nil
        if operationCalledEndpoint {
            operationCalledEndpoint = false
            metrics.recordWaiters(waiting.count)
        }
        for continuation in waiting.values { continuation.resume(returning: result) }
    }

    // MARK: - The operation

    /// Reads the store and refreshes when needed. `known` is the credential the caller saw;
    /// `rejected` the access token the server refused, if any.
    private func resolve(known: CurrentCredential?, rejected: String?) async -> Result<CurrentCredential, AuthError> {
        do throws(AuthError) {
            // First use: a fresh stored token needs neither the lock nor the server.
            if known == nil, rejected == nil, let stored = try await load(), isUsable(stored, rejected: nil) {
                return .success(stored)
            }
            if let notBefore = retryNotBefore, clock.now < notBefore {
                if let stored = try await load(), isUsable(stored, rejected: rejected) { return .success(stored) }
                let wait = Int(notBefore.timeIntervalSince(clock.now).rounded(.up))
                throw AuthError(
                    code: .retryLater,
                    message: "refreshing failed \(failures) times in a row (last: \(lastFailure?.message ?? "unknown")); next attempt in \(wait) s")
            }
            let lease = try await takeLock()
            defer { lease?.release() }
            guard let stored = try await load() else {
                guard let acquirer else { throw AuthError.signInRequired("no credential is stored for \(key)") }
                return .success(try await acquire(with: acquirer, replacing: nil, rejected: rejected))
            }
            if isUsable(stored, rejected: rejected) {
                logger?.debug("stored token is usable; no refresh needed", metadata: ["credential": "\(key)"])
                return .success(stored)
            }
            return .success(try await refresh(stored, rejected: rejected))
        } catch {
            return .failure(error)
        }
    }

    /// Calls the refresher for `stored` and saves the result with compare-and-swap.
    private func refresh(_ stored: CurrentCredential, rejected: String?) async throws(AuthError) -> CurrentCredential {
        if let acquirer, !acquirer.accepts(stored.tokenSet) {
            // Cached for another configuration (another endpoint, client, scopes or DPoP key):
            // never handed out, never refreshed with this client; replaced by a new token.
            return try await acquire(with: acquirer, replacing: stored, rejected: rejected)
        }
        guard let refreshToken = stored.tokenSet.refreshToken, !refreshToken.isEmpty else {
            if let acquirer { return try await acquire(with: acquirer, replacing: stored, rejected: rejected) }
            throw AuthError.signInRequired(rejected == nil
                ? "the access token expired and no refresh token is stored"
                : "the server rejected the access token and no refresh token is stored")
        }
        logger?.info("refreshing access token", metadata: ["credential": "\(key)"])
        let fresh: TokenSet
        do throws(AuthError) {
            fresh = try await tracedEndpointCall(grant: "refresh_token") { () async throws(AuthError) in
                try await refresher.refresh(stored.tokenSet)
            }
        } catch where error.code == .signInRequired {
            logger?.notice("refresh token rejected; clearing the stored credential", metadata: ["credential": "\(key)"])
            do throws(TokenStoreError) {
                _ = try await store.replace(key, expected: stored.credential, with: nil)
            } catch {
                logger?.warning("could not clear the rejected credential", metadata: ["reason": "\(error.message)"])
            }
            throw error
        }
        return try await save(fresh, replacing: stored, rejected: rejected)
    }

    /// Acquires a new token set (nothing stored, or no refresh token) and saves it.
    private func acquire(
        with acquirer: any TokenAcquirer, replacing stored: CurrentCredential?, rejected: String?
    ) async throws(AuthError) -> CurrentCredential {
        logger?.info("acquiring an access token", metadata: ["credential": "\(key)"])
        let fresh = try await tracedEndpointCall(grant: "client_credentials") { () async throws(AuthError) in
            try await acquirer.acquire(replacing: stored?.tokenSet)
        }
        return try await save(fresh, replacing: stored, rejected: rejected)
    }

    /// Runs one token endpoint call in a `tokenkit.refresh` span, counting and timing it.
    private func tracedEndpointCall(
        grant: String, _ call: () async throws(AuthError) -> TokenSet
    ) async throws(AuthError) -> TokenSet {
        operationCalledEndpoint = true
        let started = ContinuousClock.now
        do throws(AuthError) {
            let fresh = try await AuthSpan.run(
                "tokenkit.refresh", attributes: [("tokenkit.grant", grant)],
                failureOutcome: { RefreshMetrics.Outcome($0).label }, call)
            metrics.record(.ok, elapsed: ContinuousClock.now - started)
            return fresh
        } catch {
            metrics.record(RefreshMetrics.Outcome(error), elapsed: ContinuousClock.now - started)
            throw error
        }
    }

    /// Saves `fresh` with compare-and-swap against `stored` (`nil`: nothing was stored).
    private func save(_ fresh: TokenSet, replacing stored: CurrentCredential?, rejected: String?) async throws(AuthError) -> CurrentCredential {
        let saved = CurrentCredential(credential: Credential(tokenSet: fresh), tokenSet: fresh)
        let swapped: Bool
        do throws(TokenStoreError) {
            swapped = try await store.replace(key, expected: stored?.credential, with: saved.credential)
        } catch {
            throw AuthError(code: .store, message: "the refreshed token set could not be saved: \(error.message)")
        }
        guard swapped else {
            // Someone else wrote (a sign-in, a sign-out, or a refresher without the lock):
            // the store wins, and the refreshed set is dropped unsaved.
            guard let now = try await load() else {
                throw AuthError.signInRequired("the credential was removed while it was being refreshed")
            }
            if isUsable(now, rejected: rejected) { return now }
            throw AuthError(code: .conflict, message: "the stored credential changed while refreshing; the refreshed token set was not saved")
        }
        logger?.info("access token refreshed", metadata: ["credential": "\(key)"])
        return saved
    }

    /// Takes the cross-process lock, when there is one; its failures become
    /// ``AuthError/Code/lock`` (or ``AuthError/Code/cancelled``) with the lock's own message.
    private func takeLock() async throws(AuthError) -> RefreshLockLease? {
        guard let lock else { return nil }
        do throws(TokenStoreError) {
            return try await lock.acquire(for: key)
        } catch where error.code == .cancelled {
            throw .cancelled
        } catch where error.code == .lock {
            throw AuthError(code: .lock, message: error.message)
        } catch {
            throw .lock(error.message)
        }
    }

    /// Reads the stored credential; `nil` when none is stored.
    private func load() async throws(AuthError) -> CurrentCredential? {
        let credential: Credential?
        do throws(TokenStoreError) { credential = try await store.load(key) } catch { throw .store(error) }
        guard let credential else { return nil }
        let tokenSet: TokenSet
        do throws(TokenStoreError) { tokenSet = try credential.tokenSet() } catch { throw .store(error) }
        // A stored access token is handed out as it is (printed, put in a header): it must be a
        // Bearer token even when it did not come through a grant (e.g. `store put`).
        if let problem = TokenCharacterSet.accessTokenProblem(tokenSet.accessToken) {
            throw AuthError(code: .store, message: "credential store: the stored token set for \(key) is unusable: \(problem)")
        }
        return CurrentCredential(credential: credential, tokenSet: tokenSet)
    }

    /// Whether `stored` can be handed out: not expiring, not the token the server refused,
    /// and (with a ``TokenAcquirer``) acquired for the acquirer's configuration.
    private func isUsable(_ stored: CurrentCredential, rejected: String?) -> Bool {
        stored.tokenSet.accessToken != rejected && !isExpiring(stored.tokenSet) && (acquirer?.accepts(stored.tokenSet) ?? true)
    }

    /// Whether `tokenSet`'s access token expires within ``skew`` (never, when its expiry is unknown).
    private func isExpiring(_ tokenSet: TokenSet) -> Bool {
        guard let expiry = accessTokenExpiry(of: tokenSet) else { return false }
        return clock.now + skew >= expiry
    }

    // MARK: - Events

    private func publish(_ kind: AuthEvent.Kind, expiresAt: Date?) {
        let event = AuthEvent(kind: kind, key: key, expiresAt: expiresAt)
        for continuation in subscribers.values { continuation.yield(event) }
    }

    private func unsubscribe(_ id: UInt64) {
        subscribers.removeValue(forKey: id)
    }

    private func takeID() -> UInt64 {
        nextID += 1
        return nextID
    }
}

/// A stored credential together with its decoded token set.
struct CurrentCredential: Sendable {
    let credential: Credential
    let tokenSet: TokenSet
}
