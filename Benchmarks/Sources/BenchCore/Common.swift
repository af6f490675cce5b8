#if canImport(Glibc)
import Glibc
#endif

/// The algorithms measured.
public enum Alg: String, CaseIterable, Sendable {
    case hs256 = "HS256", rs256 = "RS256", ps256 = "PS256", es256 = "ES256", es384 = "ES384", eddsa = "EdDSA"
}

/// What every library is given: the same key and the same claims.
public struct KeyMaterial: Sendable {
    public let alg: Alg
    /// The HMAC secret (HS256) or a PKCS#8 private key PEM.
    public let secret: [UInt8]
    public let privatePEM: String
    public let publicPEM: String

    public init(alg: Alg, secret: [UInt8], privatePEM: String, publicPEM: String) {
        self.alg = alg
        self.secret = secret
        self.privatePEM = privatePEM
        self.publicPEM = publicPEM
    }
}

public enum Claims {
    public static let issuer = "https://auth.example.com/realms/production"
    public static let audience = "api.example.com"
    public static let subject = "user-8f14e45fceea167a5a36dedd4bea2543"
    public static let name = "Jane Q. Example-Longname"
    public static let roles = ["reader", "writer", "billing-admin", "support"]
    public static let tenant = "tenant-7c9e6679"
    public static func times() -> (iat: Int64, exp: Int64) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let now = Int64(ts.tv_sec)
        return (now, now + 3600)
    }
}

/// One library's operations for one algorithm, ready to loop.
public struct Case {
    public var sign: (() throws -> Void)?
    public var verify: (() throws -> Void)?
    public var decode: (() throws -> Void)?
    public var asyncSign: (() async throws -> Void)?
    public var asyncVerify: (() async throws -> Void)?
    public var asyncDecode: (() async throws -> Void)?
    /// Verifies the next token of a stream of distinct tokens (one issuer; different
    /// sub/jti/exp), cycling through it: what a server sees, unlike the one-token loop.
    public var verifyDistinct: (() throws -> Void)?
    public var asyncVerifyDistinct: (() async throws -> Void)?

    public init() {}
}

/// The algorithms the distinct-token row is measured for: signing 100,000 tokens beforehand
/// must take seconds, not minutes (RSA and ES384 signing would).
public let distinctTokenAlgs: Set<Alg> = [.hs256, .es256, .eddsa]

/// A position in a token stream, advanced by each verification.
public final class StreamCursor {
    public let tokens: [String]
    private var index = 0
    public init(_ tokens: [String]) { self.tokens = tokens }
    @inline(__always) public func next() -> String {
        let token = tokens[index]
        index = index + 1 == tokens.count ? 0 : index + 1
        return token
    }
}

/// Wall-clock nanoseconds (monotonic).
@inline(__always) public func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The clock the per-operation loops use: process CPU time by default (the machine is
/// shared, and time spent descheduled is not the library's; process rather than thread time
/// so that jwt-kit's actor hops to other threads are counted), wall time with --wall.
nonisolated(unsafe) public var useWallClock = false

@inline(__always) public func benchNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(useWallClock ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Whether progress goes to stderr (off with --json).
nonisolated(unsafe) public var showProgress = true

/// Process CPU time in nanoseconds (all threads).
@inline(__always) public func cpuNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

extension Case {
    /// The synchronous loop body for `op` ("sign", "verify", "verify-distinct", "decode").
    public func body(_ op: String) -> (() throws -> Void)? {
        switch op {
        case "sign": sign
        case "verify": verify
        case "verify-distinct": verifyDistinct
        case "decode": decode
        default: nil
        }
    }

    /// The asynchronous loop body for `op`.
    public func asyncBody(_ op: String) -> (() async throws -> Void)? {
        switch op {
        case "sign": asyncSign
        case "verify": asyncVerify
        case "verify-distinct": asyncVerifyDistinct
        case "decode": asyncDecode
        default: nil
        }
    }
}

/// A benchmark's own failure (setup, I/O), with what went wrong.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
