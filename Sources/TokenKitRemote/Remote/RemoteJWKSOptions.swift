import Foundation
internal import TokenKitPrimitives

/// How a ``RemoteJWKS`` caches, refetches and survives outages.
///
/// Defaults: fetch limits of ``RemoteFetchOptions`` (https, 1 MiB, 10 s); `Cache-Control:
/// max-age` honoured between 1 minute and 1 day (5 minutes without one); an unknown `kid`
/// refetches at most once per 30 s (never more than once a second, whatever is set); through an outage the last good keys are served for
/// up to 6 hours past their freshness.
public struct RemoteJWKSOptions: Sendable {
    /// URL checks, body cap and timeout of each request.
    public var fetch: RemoteFetchOptions
    /// The shortest time a fetched key set is considered fresh, whatever `max-age` says.
    public var minCacheAge: Duration
    /// The longest time a fetched key set is considered fresh, whatever `max-age` says.
    public var maxCacheAge: Duration
    /// Freshness when the answer has no usable `Cache-Control: max-age`.
    public var defaultCacheAge: Duration
    /// The least time between two fetches triggered by tokens (an unknown `kid`, keys past
    /// their freshness, a failed fetch). Callers arriving meanwhile share the fetch in
    /// flight or get the keys already held. Never less than ``minimumCooldown``: a smaller
    /// value, set here or in `init`, becomes 1 second (with no cooldown, a flood of tokens
    /// with unknown `kid`s would be a flood of fetches).
    public var cooldown: Duration {
        get { clampedCooldown }
        set { clampedCooldown = max(newValue, Self.minimumCooldown) }
    }
    private var clampedCooldown: Duration
    /// The smallest ``cooldown``: 1 second.
    public static let minimumCooldown: Duration = .seconds(1)
    /// How long past its freshness a key set is still served while fetches fail. After
    /// that, verification fails with ``TokenKit/JWTError/Code/keysUnavailable``.
    public var maxStaleness: Duration

    /// Creates options; negative spans are replaced by the defaults, `maxCacheAge` is at
    /// least `minCacheAge`, and `cooldown` at least ``minimumCooldown``.
    public init(
        fetch: RemoteFetchOptions = RemoteFetchOptions(),
        minCacheAge: Duration = .seconds(60), maxCacheAge: Duration = .seconds(86_400), defaultCacheAge: Duration = .seconds(300),
        cooldown: Duration = .seconds(30), maxStaleness: Duration = .seconds(6 * 3600)
    ) {
        func clean(_ value: Duration, _ fallback: Duration) -> Duration { value >= .zero ? value : fallback }
        self.fetch = fetch
        self.minCacheAge = clean(minCacheAge, .seconds(60))
        self.maxCacheAge = max(clean(maxCacheAge, .seconds(86_400)), self.minCacheAge)
        self.defaultCacheAge = clean(defaultCacheAge, .seconds(300))
        self.clampedCooldown = max(clean(cooldown, .seconds(30)), Self.minimumCooldown)
        self.maxStaleness = clean(maxStaleness, .seconds(6 * 3600))
    }

    /// The freshness for an answer carrying `cacheControl`, within the bounds.
    func freshness(cacheControl: String?) -> Duration {
        var age = defaultCacheAge
        if let cacheControl {
            for directive in cacheControl.split(separator: ",") {
                let part = directive.trimmingCharacters(in: .whitespaces).asciiLowercased
                if part == "no-cache" || part == "no-store" {
                    age = .zero
                    break
                }
                if part.hasPrefix("max-age="), let seconds = Double(part.dropFirst(8)), seconds.isFinite, seconds >= 0 {
                    age = .seconds(clamping: seconds)
                }
            }
        }
        return min(max(age, minCacheAge), maxCacheAge)
    }
}
