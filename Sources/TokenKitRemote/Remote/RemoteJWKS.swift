import Foundation
import Logging
import TokenKit
import Tracing

/// A JSON Web Key Set fetched from an issuer, cached, and refetched as keys rotate: a
/// ``TokenKit/JWTKeySource`` for ``TokenKit/KeySourceVerifier``.
///
/// Guarantees:
/// - keys come only from the configured URL (or the `jwks_uri` of the configured issuer's
///   discovery document, whose `issuer` must match exactly), never from a token;
/// - every request follows ``RemoteFetchOptions`` (https, or http only for loopback or
///   by opt-in; same-origin redirects only; 1 MiB cap; a timeout);
/// - `Cache-Control: max-age` decides freshness within ``RemoteJWKSOptions`` bounds; a
///   refetch sends `If-None-Match` with the last `ETag`, and `304` keeps the keys;
/// - at most one fetch is in flight, shared by every caller; fetches triggered by tokens
///   (unknown `kid`, stale keys, no keys) happen at most once per ``RemoteJWKSOptions/cooldown``,
///   so 1,000 concurrent tokens with a new `kid` cause one request;
/// - a failed fetch keeps the last good keys in use for up to
///   ``RemoteJWKSOptions/maxStaleness`` past their freshness; each failure is shown in
///   ``status`` and logged at `warning` to the logger you give; when no usable keys are
///   left, ``TokenKit/JWTError/Code/keysUnavailable`` carries a
///   ``TokenKit/JWTError/retryAfter`` (the rest of the cooldown, at least 1 s);
/// - from discovery, the document is read again at the first fetch after its own freshness
///   (its `Cache-Control: max-age`, within the same bounds) has passed, so a moved
///   `jwks_uri` is followed; if that read fails, the `jwks_uri` found before is kept;
/// - each fetch runs in a `tokenkit.jwks.fetch` span (swift-distributed-tracing; a child of
///   the span that triggered it) and is counted in `tokenkit_jwks_fetches_total{outcome}`;
///   `tokenkit_jwks_keys` and `tokenkit_jwks_age_seconds` follow the held keys (updated at
///   each fetch, at each read of ``status``, and at most once a second while tokens are
///   verified). Metrics go to the backend bootstrapped when this source was created.
/// - symmetric (`oct`) keys are never taken from a remote set (anyone can read a JWKS),
///   and each key verifies only the algorithms its JWK allows (never `none`);
/// - every key passes key admission (``TokenKit/JWKSet/init(json:)``): a refused entry (an
///   Ed25519 or Ed448 key of small order, an unsupported type…) is dropped, logged at
///   `warning` with its `kid` and reason, and listed in ``status`` (``RemoteJWKSStatus/droppedKeys``);
///   the other keys are used.
///
/// Token verification never waits for a refetch of stale keys (it happens in the
/// background); it waits only when there are no keys or the `kid` is unknown.
public final class RemoteJWKS: JWTKeySource, @unchecked Sendable {
    // @unchecked Sendable: the mutable `state` is read and written only while `lock` is held.

    /// Where the key set comes from (a struct, so that new kinds can be added).
    public struct Location: Sendable {
        enum Kind: Sendable {
            case url(URL)
            case discovery(String)
        }
        let kind: Kind

        /// A JWKS URL from your configuration.
        public static func url(_ url: URL) -> Location { Location(kind: .url(url)) }
        /// The `jwks_uri` of this issuer's OpenID discovery document.
        public static func discovery(issuer: String) -> Location { Location(kind: .discovery(issuer)) }
    }

    private struct State {
        var keys: JWKSet?
        var etag: String?
        var jwksURL: URL?
        /// Until when the discovery document that gave `jwksURL` is fresh.
        var discoveredUntil: Date?
        var lastFetch: Date?
        var lastAttempt: Date?
        var lastError: String?
        var lastErrorCode: AuthError.Code?
        /// When the key gauges are next refreshed from ``currentKeys(for:)``.
        var gaugesDueAt: Date?
        var freshUntil: Date?
        var inFlight: Task<Void, Never>?
        var fetchCount = 0
    }

    /// Where the keys come from.
    public let location: Location
    /// Cache, cooldown and outage settings.
    public let options: RemoteJWKSOptions
    private let transport: any HTTPTransport
    private let discovery: OpenIDDiscovery?
    private let logger: Logger?
    private let clock: any TokenClock
    private let metrics = JWKSMetrics()
    private let lock = NSLock()
    private var state = State()

    /// A key set fetched from `location` through `transport`.
    ///
    /// - Parameters:
    ///   - logger: receives a `warning` for each failed fetch and a `debug` line for each
    ///     fetch; `nil` (the default) logs nothing (``status`` still shows failures).
    ///   - clock: wall-clock time for freshness, staleness and cooldown.
    /// - Throws: ``AuthError/Code/invalidConfiguration`` when the URL or issuer is not
    ///   acceptable under `options.fetch`.
    public init(
        _ location: Location, transport: any HTTPTransport, options: RemoteJWKSOptions = RemoteJWKSOptions(),
        logger: Logger? = nil, clock: any TokenClock = SystemClock()
    ) throws(AuthError) {
        switch location.kind {
        case .url(let url):
            try GuardedFetch.validate(url, options: options.fetch, what: "JWKS")
            state.jwksURL = url
            discovery = nil
        case .discovery(let issuer):
            discovery = try OpenIDDiscovery(issuer: issuer, transport: transport, options: options.fetch)
        }
        self.location = location
        self.options = options
        self.transport = transport
        self.logger = logger
        self.clock = clock
    }

    /// Fetches the keys now (at start-up), ignoring the cooldown, and throws when that
    /// fails and no usable keys are held. Later failures are handled as described above.
    public func prewarm() async throws(JWTError) {
        await fetchShared(force: true)
        guard usableKeys(at: clock.now) != nil else { throw unavailable() }
    }

    /// A snapshot of the cache and of the last fetch (reading it also brings the
    /// `tokenkit_jwks_keys` and `tokenkit_jwks_age_seconds` gauges up to date).
    public var status: RemoteJWKSStatus {
        let now = clock.now
        let status = withState { state in
            let usable = state.freshUntil.map { $0 + options.maxStaleness }
            let keys = usable.map { now < $0 } == true ? state.keys : nil
            return RemoteJWKSStatus(
                keyCount: keys?.keys.count ?? 0, lastFetch: state.lastFetch, lastAttempt: state.lastAttempt,
                lastError: state.lastError, lastErrorCode: state.lastErrorCode, freshUntil: state.freshUntil, usableUntil: usable,
                isStale: state.freshUntil.map { now >= $0 } ?? true, droppedKeys: keys?.droppedKeys ?? [])
        }
        metrics.observe(usableKeys: status.keyCount, lastFetch: status.lastFetch, now: now)
        return status
    }

    /// The usable key set, fetched first when none is held (under the cooldown, like
    /// ``loadKeys(for:)``). Throws ``TokenKit/JWTError/Code/keysUnavailable`` when none is usable.
    public func keySet() async throws(JWTError) -> JWKSet {
        if let keys = usableKeys(at: clock.now) { return keys }
        await fetchShared(force: false)
        guard let keys = usableKeys(at: clock.now) else { throw unavailable() }
        return keys
    }

    /// How many HTTP fetches of the key set were started (for tests and metrics).
    public var fetchCount: Int { withState { $0.fetchCount } }

    // MARK: JWTKeySource

    /// The keys held, while within max staleness. Past their freshness, starts a
    /// background refetch (at most once per cooldown) and still answers at once.
    public func currentKeys(for request: JWTKeyRequest) -> JWKSet? {
        let now = clock.now
        return withState { state in
            if state.gaugesDueAt.map({ now >= $0 }) != false { observeGauges(&state, at: now) }
            guard let keys = state.keys, let freshUntil = state.freshUntil else { return nil }
            guard now >= freshUntil else { return keys }
            if state.inFlight == nil, Self.cooledDown(state, at: now, cooldown: options.cooldown) {
                _ = startFetch(&state, at: now)
            }
            return now < freshUntil + options.maxStaleness ? keys : nil
        }
    }

    /// Fetches (sharing a fetch in flight; at most once per cooldown) and returns the keys
    /// held afterwards. Throws ``TokenKit/JWTError/Code/keysUnavailable`` when none are usable.
    public func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet {
        await fetchShared(force: false)
        guard let keys = usableKeys(at: clock.now) else { throw unavailable() }
        return keys
    }

    // MARK: Fetching

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Whether the cooldown since the last attempt has passed.
    private static func cooledDown(_ state: State, at now: Date, cooldown: Duration) -> Bool {
        guard let last = state.lastAttempt else { return true }
        return now >= last + cooldown
    }

    private func usableKeys(at now: Date) -> JWKSet? {
        withState { state in
            guard let keys = state.keys, let freshUntil = state.freshUntil,
                  now < freshUntil + options.maxStaleness else { return nil }
            return keys
        }
    }

    /// The error for "no usable keys", with the time left until a token may trigger the
    /// next fetch (at least 1 s). Its reason keeps the last failure for operators; a
    /// service answering clients must not show it (it can name the JWKS host).
    private func unavailable() -> JWTError {
        let now = clock.now
        let (why, retryAfter): (String?, Duration) = withState { state in
            let next = state.lastAttempt.map { $0 + options.cooldown } ?? now
            let wait = Duration.seconds(clamping: next.timeIntervalSince(now))
            return (state.lastError, max(wait, RemoteJWKSOptions.minimumCooldown))
        }
        return JWTError(code: .keysUnavailable, reason: "no usable keys from the remote JWKS: \(why ?? "no key set could be fetched")",
                        retryAfter: retryAfter)
    }

    /// Sets the key gauges from `state` (under the lock) and schedules the next update
    /// from ``currentKeys(for:)`` one second later.
    /// A fetch that succeeded (a new key set, or `304` for the held one) at `now`: fresh until
    /// `freshUntil`, no error, no fetch in flight, gauges updated. The one place both outcomes
    /// record it.
    private func recordSuccess(_ state: inout State, at now: Date, freshUntil: Date) {
        state.lastFetch = now
        state.freshUntil = freshUntil
        state.lastError = nil
        state.lastErrorCode = nil
        state.inFlight = nil
        observeGauges(&state, at: now)
    }

    private func observeGauges(_ state: inout State, at now: Date) {
        state.gaugesDueAt = now + .seconds(1)
        let usable = state.freshUntil.map { now < $0 + options.maxStaleness } == true ? state.keys?.keys.count ?? 0 : 0
        metrics.observe(usableKeys: usable, lastFetch: state.lastFetch, now: now)
    }

    /// Joins the fetch in flight, or starts one when allowed (`force` ignores the cooldown).
    private func fetchShared(force: Bool) async {
        let now = clock.now
        let task: Task<Void, Never>? = withState { state in
            if let running = state.inFlight { return running }
            guard force || Self.cooledDown(state, at: now, cooldown: options.cooldown) else { return nil }
            return startFetch(&state, at: now)
        }
        await task?.value
    }

    /// Starts the one fetch (called under the lock, when none is in flight).
    private func startFetch(_ state: inout State, at now: Date) -> Task<Void, Never> {
        state.lastAttempt = now
        state.fetchCount += 1
        let task = Task { await self.fetchOnce() }
        state.inFlight = task
        return task
    }

    /// One fetch (discovery first when needed) in a `tokenkit.jwks.fetch` span; records
    /// and counts the outcome. Never throws.
    private func fetchOnce() async {
        await withSpan("tokenkit.jwks.fetch", ofKind: .client) { span in
            let (outcome, httpStatus) = await fetchAndRecord()
            metrics.countFetch(outcome)
            span.attributes["tokenkit.outcome"] = outcome.label
            if let httpStatus { span.attributes["http.response.status_code"] = httpStatus }
            if outcome == .error { span.setStatus(SpanStatus(code: .error)) }
        }
    }

    /// The fetch itself: stores the keys (or the failure) and returns the outcome and the
    /// HTTP status answered, if any.
    private func fetchAndRecord() async -> (JWKSMetrics.Outcome, Int?) {
        var httpStatus: Int?
        do throws(AuthError) {
            let url = try await resolveJWKSURL()
            let etag: String? = withState { $0.keys == nil ? nil : $0.etag }
            var headers = [HTTPHeader(name: "Accept", value: "application/jwk-set+json, application/json")]
            if let etag { headers.append(HTTPHeader(name: "If-None-Match", value: etag)) }
            let fetched = try await GuardedFetch.get(url, headers: headers, transport: transport, options: options.fetch, what: "JWKS")
            let response = fetched.response
            httpStatus = response.status
            let now = clock.now
            let freshUntil = now + options.freshness(cacheControl: response.headers.first(named: "Cache-Control"))
            if response.status == 304, etag != nil {
                withState { recordSuccess(&$0, at: now, freshUntil: freshUntil) }
                logger?.debug("JWKS not modified", metadata: ["jwks": "\(url.originForMessages)"])
                return (.notModified, httpStatus)
            }
            guard response.status == 200 else {
                throw AuthError(code: .invalidResponse, message: "JWKS request to \(fetched.url.originForMessages) answered HTTP \(response.status)")
            }
            let keys = try Self.parse(response.body, from: fetched.url)
            let newTag = response.headers.first(named: "ETag")
            withState { state in
                state.keys = keys
                state.etag = newTag
                recordSuccess(&state, at: now, freshUntil: freshUntil)
            }
            logger?.debug("JWKS fetched", metadata: ["jwks": "\(url.originForMessages)", "keys": "\(keys.keys.count)"])
            for dropped in keys.droppedKeys {
                logger?.warning("JWKS key dropped", metadata: [
                    "jwks": "\(url.originForMessages)", "index": "\(dropped.index)",
                    "kid": "\(dropped.keyID.map { UntrustedText.sanitized($0, maxCharacters: 41) } ?? "none")",
                    "reason": "\(UntrustedText.sanitized(dropped.reason, maxCharacters: 200))",
                ])
            }
            return (.ok, httpStatus)
        } catch {
            let message = error.message
            let now = clock.now
            let (held, usableUntil): (Int, Date?) = withState { state in
                state.lastError = message
                state.lastErrorCode = error.code
                state.inFlight = nil
                observeGauges(&state, at: now)
                return (state.keys?.keys.count ?? 0, state.freshUntil.map { $0 + options.maxStaleness })
            }
            logger?.warning("JWKS fetch failed; serving the last good keys while they are within max staleness", metadata: [
                "error": "\(message)", "held_keys": "\(held)",
                "usable_until": "\(usableUntil.map { "\(Int($0.timeIntervalSince1970))" } ?? "none")",
            ])
            return (.error, httpStatus)
        }
    }

    /// The JWKS URL: the configured one, or the discovery document's `jwks_uri`, read again
    /// once the document is past its freshness. A failed re-read keeps the URL found
    /// before (logged); the first read must succeed.
    private func resolveJWKSURL() async throws(AuthError) -> URL {
        let now = clock.now
        let (known, discoveredUntil) = withState { ($0.jwksURL, $0.discoveredUntil) }
        guard let discovery else {
            guard let known else { throw .invalidConfiguration("no JWKS URL") }
            return known
        }
        if let known, let discoveredUntil, now < discoveredUntil { return known }
        do throws(AuthError) {
            let (metadata, cacheControl) = try await discovery.fetchDocument()
            guard let url = metadata.jwksURI else {
                throw OpenIDProviderMetadata.invalid("it has no \"jwks_uri\"")
            }
            try GuardedFetch.validate(url, options: options.fetch, what: "JWKS")
            let freshUntil = clock.now + options.freshness(cacheControl: cacheControl)
            withState { state in
                if let previous = state.jwksURL, !previous.absoluteString.utf8.elementsEqual(url.absoluteString.utf8) {
                    state.etag = nil  // another resource: its ETag says nothing about this one
                }
                state.jwksURL = url
                state.discoveredUntil = freshUntil
            }
            return url
        } catch {
            guard let known else { throw error }
            logger?.warning("re-reading the discovery document failed; keeping the jwks_uri found before",
                            metadata: ["error": "\(error.message)"])
            return known
        }
    }

    /// A remote key set: a valid JWKS with at least one usable asymmetric key.
    static func parse(_ body: [UInt8], from url: URL) throws(AuthError) -> JWKSet {
        guard let text = String(validating: body, as: UTF8.self) else {
            throw AuthError(code: .invalidResponse, message: "JWKS from \(url.originForMessages) is not UTF-8")
        }
        let parsed: JWKSet
        do { parsed = try JWKSet(json: text) } catch {
            throw AuthError(code: .invalidResponse, message: "unusable JWKS from \(url.originForMessages): \(error.reason)")
        }
        guard !parsed.keys.contains(where: { $0.keyType == "oct" }) else {
            throw AuthError(code: .invalidResponse, message: "JWKS from \(url.originForMessages) holds a symmetric (oct) key; remote key sets must hold public keys only")
        }
        guard !parsed.keys.contains(where: \.isSecret) else {
            throw AuthError(code: .invalidResponse, message: "JWKS from \(url.originForMessages) holds a private key; refused")
        }
        return parsed
    }
}
