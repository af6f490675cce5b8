import Foundation
import TokenKit

/// What a ``RemoteJWKS`` holds and how its last fetch went: for health endpoints and
/// monitoring. A snapshot; it does not change after it was taken.
public struct RemoteJWKSStatus: Sendable {
    /// Usable keys held (0 before the first successful fetch or once past max staleness).
    public let keyCount: Int
    /// When the key set was last fetched or revalidated successfully.
    public let lastFetch: Date?
    /// When the last fetch was attempted, successful or not.
    public let lastAttempt: Date?
    /// Why the last fetch failed (one line, no secrets); `nil` when it succeeded. For
    /// operators: it may name the JWKS host, so do not show it to clients.
    public let lastError: String?
    /// The kind of the last failure (``AuthError/Code``), `nil` when it succeeded: safe to
    /// show on a public health endpoint (it names no URL, host or port).
    public let lastErrorCode: AuthError.Code?
    /// Until when the held keys are fresh (no refetch needed).
    public let freshUntil: Date?
    /// Until when the held keys are served if fetches keep failing.
    public let usableUntil: Date?
    /// Whether the keys held are past their freshness (a refetch is due or failing).
    public let isStale: Bool
    /// The entries of the held key set's document that were refused and dropped (e.g. an
    /// Ed25519 key of small order, an unsupported key type), each with its `kid` (`nil` when
    /// the entry has none) and reason; empty when every entry loaded or no keys are held.
    /// See ``TokenKit/JWKSet/droppedKeys``.
    public let droppedKeys: [DroppedKey]
}
