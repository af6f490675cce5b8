internal import TokenKitCrypto
import TokenKit

/// Per-thread reusable buffers for auditing many tokens: the scanner's buffers and a
/// SHA-256 context for token references. Keep one per worker; never share one between
/// threads (it is deliberately not `Sendable`).
public struct AuditScratch {
    /// Buffers for ``JWTQuickScanner``.
    public var scanner = JWTQuickScanner.Scratch()
    let digest = ReusableDigest(.sha256)

    /// Fresh buffers.
    public init() {}
}
