#if Postgres
internal import TokenKitCrypto

/// PostgreSQL advisory-lock ids, made one way for every lock TokenKit takes: the first
/// 8 bytes of SHA-256 of the parts joined by NUL bytes, as a signed integer. The first part
/// names the lock's purpose ("tokenkit refresh lock", "tokenkit schema"), so ids of
/// different purposes are drawn apart.
enum AdvisoryLockID {
    /// The id of `parts`; throws only if hashing fails.
    static func of(_ parts: [String]) throws(CryptoError) -> Int64 {
        var input: [UInt8] = []
        for (position, part) in parts.enumerated() {
            if position > 0 { input.append(0) }
            input += part.utf8
        }
        let digest = try SHA256Digest.hash(input)
        return Int64(bitPattern: digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}
#endif
