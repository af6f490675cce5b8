internal import TokenKitCrypto

/// Non-secret names for tokens, safe to print and log.
public enum TokenReference {
    /// `jti` when present (control characters replaced, at most 64 characters), else
    /// ``hashed(_:)``. Guarantees the result reveals nothing usable of the token; it does
    /// not guarantee uniqueness (two tokens may share a `jti`).
    public static func make(jti: String?, token: UnsafeRawBufferPointer) -> String {
        var scratch = AuditScratch()
        return make(jti: jti, token: token, scratch: &scratch)
    }

    /// ``make(jti:token:)`` reusing a thread's digest context.
    public static func make(jti: String?, token: UnsafeRawBufferPointer, scratch: inout AuditScratch) -> String {
        if let jti, !jti.isEmpty { return DisplayText.sanitized(jti, maxCharacters: 64) }
        return hashed(token, scratch: &scratch)
    }

    /// `sha256:` followed by the first 8 bytes of the SHA-256 of `token`, in lowercase hex
    /// (the first 16 hex digits `sha256sum` prints for the same bytes). One-way: the token
    /// cannot be recovered from it.
    public static func hashed(_ token: UnsafeRawBufferPointer) -> String {
        var scratch = AuditScratch()
        return hashed(token, scratch: &scratch)
    }

    /// ``hashed(_:)`` reusing a thread's digest context.
    public static func hashed(_ token: UnsafeRawBufferPointer, scratch: inout AuditScratch) -> String {
        scratch.digest.withDigest(of: token) { digest in
            String(unsafeUninitializedCapacity: 23) { out in
                let prefix = "sha256:".utf8
                var index = 0
                for byte in prefix { out[index] = byte; index += 1 }
                for byte in digest.prefix(8) {
                    out[index] = hexDigits[Int(byte >> 4)]
                    out[index + 1] = hexDigits[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
