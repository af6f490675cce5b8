internal import TokenKitCrypto
import TokenKit

/// Per-thread reusable buffers for auditing many tokens: a payload buffer and a SHA-256
/// context for token references. Keep one per worker; never share one between
/// threads (it is deliberately not `Sendable`).
public struct AuditScratch {
    /// The core's decoding buffers (reused from token to token).
    var inspection = InspectionScratch()
    let digest = ReusableDigest(.sha256)

    /// Fresh buffers.
    public init() {}
}
