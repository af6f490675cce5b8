#if canImport(Glibc)
import Glibc
#endif

/// The algorithms measured.
enum Alg: String, CaseIterable, Sendable {
    case hs256 = "HS256", rs256 = "RS256", ps256 = "PS256", es256 = "ES256", es384 = "ES384", eddsa = "EdDSA"
}

/// What every library is given: the same key and the same claims.
struct KeyMaterial: Sendable {
    let alg: Alg
    /// The HMAC secret (HS256) or a PKCS#8 private key PEM.
    let secret: [UInt8]
    let privatePEM: String
    let publicPEM: String
}

enum Claims {
    static let issuer = "https://auth.example.com/realms/production"
    static let audience = "api.example.com"
    static let subject = "user-8f14e45fceea167a5a36dedd4bea2543"
    static let name = "Jane Q. Example-Longname"
    static let roles = ["reader", "writer", "billing-admin", "support"]
    static let tenant = "tenant-7c9e6679"
    static func times() -> (iat: Int64, exp: Int64) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let now = Int64(ts.tv_sec)
        return (now, now + 3600)
    }
}

/// One library's operations for one algorithm, ready to loop.
struct Case {
    var sign: (() throws -> Void)?
    var verify: (() throws -> Void)?
    var decode: (() throws -> Void)?
    var asyncSign: (() async throws -> Void)?
    var asyncVerify: (() async throws -> Void)?
    var asyncDecode: (() async throws -> Void)?
    /// Verifies the next token of a stream of distinct tokens (one issuer; different
    /// sub/jti/exp), cycling through it: what a server sees, unlike the one-token loop.
    var verifyDistinct: (() throws -> Void)?
    var asyncVerifyDistinct: (() async throws -> Void)?
}

/// The algorithms the distinct-token row is measured for: signing 100,000 tokens beforehand
/// must take seconds, not minutes (RSA and ES384 signing would).
let distinctTokenAlgs: Set<Alg> = [.hs256, .es256, .eddsa]

/// A position in a token stream, advanced by each verification.
final class StreamCursor {
    let tokens: [String]
    private var index = 0
    init(_ tokens: [String]) { self.tokens = tokens }
    @inline(__always) func next() -> String {
        let token = tokens[index]
        index = index + 1 == tokens.count ? 0 : index + 1
        return token
    }
}

/// Wall-clock nanoseconds (monotonic).
@inline(__always) func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The clock the per-operation loops use: process CPU time by default (the machine is
/// shared, and time spent descheduled is not the library's; process rather than thread time
/// so that jwt-kit's actor hops to other threads are counted), wall time with --wall.
nonisolated(unsafe) var useWallClock = false

@inline(__always) func benchNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(useWallClock ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Whether progress goes to stderr (off with --json).
nonisolated(unsafe) var showProgress = true

/// Process CPU time in nanoseconds (all threads).
@inline(__always) func cpuNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

extension Case {
    /// The synchronous loop body for `op` ("sign", "verify", "verify-distinct", "decode").
    func body(_ op: String) -> (() throws -> Void)? {
        switch op {
        case "sign": sign
        case "verify": verify
        case "verify-distinct": verifyDistinct
        case "decode": decode
        default: nil
        }
    }

    /// The asynchronous loop body for `op`.
    func asyncBody(_ op: String) -> (() async throws -> Void)? {
        switch op {
        case "sign": asyncSign
        case "verify": asyncVerify
        case "verify-distinct": asyncVerifyDistinct
        case "decode": asyncDecode
        default: nil
        }
    }
}
