/// A fast, low-allocation decoder for auditing many tokens: extracts the header's `alg` and
/// `kid` and the registered claims without building a JSON tree.
///
/// Guarantee (tested differentially against ``UnverifiedJWT``): when ``scan(_:limits:claimNames:scratch:)``
/// returns a value, `UnverifiedJWT(parsing:limits:)` accepts the same token, and every
/// field of the result equals the corresponding header field or typed ``JWTClaims``
/// accessor (none of which throws). The scanner enforces the same rules — size limit,
/// three parts, canonical unpadded base64url in all three parts (stricter than
/// ``UnverifiedJWT``, which does not read the signature part: the scanner declines such a
/// token and the caller decides), strict RFC 8259 JSON with UTF-8
/// validation, escape and surrogate checks, no duplicate member names at any level, the
/// nesting limit, header member types, claim types (a non-empty `aud` array) and NumericDate
/// range — and returns
/// `nil` whenever a token breaks one of them OR falls outside its fast path (a `crit`
/// header, escaped or non-ASCII member names, an escaped string in a field it returns,
/// objects with more than 64 members). `nil` therefore means "decode with
/// ``UnverifiedJWT``", which yields the exact error or the same result. It never accepts a
/// token the strict decoder refuses.
public enum JWTQuickScanner {
    /// Reusable buffers for one thread's scans (keep one per worker; not thread-safe).
    public struct Scratch {
        var bytes: [UInt8] = []
        var names: [(start: Int, count: Int)] = []
        /// Empty buffers, grown on first use.
        public init() {
            bytes.reserveCapacity(4096)
            names.reserveCapacity(64)
        }
    }


    /// Scans `token` (the compact serialization's bytes). `claimNames` (at most 64, ASCII)
    /// are reported in ``ScannedJWT/presentClaims``. Returns `nil` when the token must be
    /// decoded with ``UnverifiedJWT`` instead (invalid, or outside the fast path).
    public static func scan(_ token: UnsafeRawBufferPointer, limits: ParsingLimits = .default,
                            claimNames: [[UInt8]] = [], scratch: inout Scratch) -> ScannedJWT? {
        guard !token.isEmpty, token.count <= limits.maxTokenBytes, claimNames.count <= 64,
              claimNames.allSatisfy({ $0.allSatisfy { $0 < 0x80 } }) else { return nil }
        var firstDot = -1, secondDot = -1
        for index in 0..<token.count where token[index] == UInt8(ascii: ".") {
            if firstDot < 0 { firstDot = index } else if secondDot < 0 { secondDot = index } else { return nil }
        }
        guard firstDot > 0, secondDot > firstDot else { return nil }
        // The audit reports a token whose signature part is not canonical base64url as
        // malformed: decline it here so the caller's strict path names the reason.
        guard QuickBase64URL.isCanonical(token, from: secondDot + 1, to: token.count) else { return nil }

        var result = ScannedJWT()
        scratch.bytes.removeAll(keepingCapacity: true)
        guard QuickBase64URL.decode(token, from: 0, to: firstDot, into: &scratch.bytes) else { return nil }
        let headerEnd = scratch.bytes.count
        guard QuickBase64URL.decode(token, from: firstDot + 1, to: secondDot, into: &scratch.bytes) else { return nil }
        let payloadEnd = scratch.bytes.count

        var names = scratch.names
        scratch.names = []
        defer { scratch.names = names }
        let ok: Bool = scratch.bytes.withUnsafeBufferPointer { all in
            var json = StrictJSONScanner(UnsafeBufferPointer(rebasing: all[0..<headerEnd]), maxDepth: limits.maxDepth, names: names)
            defer { names = json.names }
            guard scanHeader(&json, into: &result) else { return false }
            json = StrictJSONScanner(UnsafeBufferPointer(rebasing: all[headerEnd..<payloadEnd]), maxDepth: limits.maxDepth, names: json.names)
            return scanPayload(&json, claimNames: claimNames, into: &result)
        }
        return ok ? result : nil
    }

    private static func scanHeader(_ json: inout StrictJSONScanner, into result: inout ScannedJWT) -> Bool {
        var sawAlg = false
        let ok = json.topLevelObject { json, name in
            switch json.headerMember(name) {
            case 0:
                guard let alg = json.plainString() else { return false }
                result.algorithmName = alg
                sawAlg = true
                return true
            case 1:
                guard let kid = json.plainString() else { return false }
                result.keyID = kid
                return true
            case 2, 3:
                return json.isString() && json.value(depth: 1)
            case 4:
                return false  // crit: left to the full decoder
            default:
                return json.value(depth: 1)
            }
        }
        return ok && sawAlg
    }

    private static func scanPayload(_ json: inout StrictJSONScanner, claimNames: [[UInt8]], into result: inout ScannedJWT) -> Bool {
        json.topLevelObject { json, name in
            for (bit, wanted) in claimNames.enumerated() where json.equals(name, wanted) {
                result.presentClaims |= 1 << UInt64(bit)
            }
            switch json.registeredClaim(name) {
            case 0: result.issuer = json.plainString(); return result.issuer != nil
            case 1: result.subject = json.plainString(); return result.subject != nil
            case 2: result.jwtID = json.plainString(); return result.jwtID != nil
            case 3:
                if json.isString() {
                    guard let single = json.plainString() else { return false }
                    result.audience = [single]
                    return true
                }
                guard let list = json.plainStringArray(depth: 1), !list.isEmpty else { return false }
                result.audience = list
                result.audienceIsArray = true
                return true
            case 4: result.issuedAt = json.numericDate(); return result.issuedAt != nil
            case 5: result.notBefore = json.numericDate(); return result.notBefore != nil
            case 6: result.expiration = json.numericDate(); return result.expiration != nil
            default: return json.value(depth: 1)
            }
        }
    }
}
