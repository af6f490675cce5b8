internal import COpenSSL

/// The admission check of an Ed25519 or Ed448 public key (RFC 8032 §5.1.3 and §5.2.3), run
/// by ``PKey/init(taking:isPrivate:)`` on every Edwards key, public or private, whatever its
/// source.
///
/// OpenSSL accepts any 32 (57) bytes as an Ed25519 (Ed448) public key and checks nothing on
/// them (`EVP_PKEY_public_check` passes). A key of small order lets anyone forge: with the
/// identity as the key, the signature `R = identity, S = 0` verifies for every message.
/// So the encoded point is decoded here with real arithmetic (OpenSSL's big numbers) and
/// refused, with its reason, when:
/// - its encoding is not canonical: `y ≥ p`; for Ed448, any of the 7 unused bits of the last
///   byte set; `x = 0` with the sign bit set;
/// - it is not a point of the curve (`x² = (y² − 1) / (d·y² − a)` has no square root);
/// - it has small order: `[h]P` is the identity for the cofactor `h` (8 for Ed25519, 4 for
///   Ed448), i.e. the identity itself and every other point of the torsion subgroup
///   (libsodium's `ge25519_has_small_order` list for Ed25519, pinned in the tests).
///
/// It does not check that the point is in the prime-order subgroup (a point with a small
/// component added to a real key is not refused, as in libsodium and RFC 8032).
package enum EdwardsPointCheck {
    /// Why `encoded` is not an acceptable public key of `curve`, or `nil` when it is one.
    package static func problem(_ encoded: [UInt8], curve: EdwardsCurve) -> String? {
        do throws(CryptoError) {
            return try Checker(curve).problem(encoded)
        } catch {
            return "cannot be checked (\(error.message))"
        }
    }

    /// Throws a ``CryptoError`` naming the problem when `encoded` is refused (see the type).
    package static func check(_ encoded: [UInt8], curve: EdwardsCurve) throws(CryptoError) {
        if let problem = problem(encoded, curve: curve) {
            throw CryptoError("\(curve.name) public key refused: \(problem)")
        }
    }
}

/// The two Edwards curves of JWS (RFC 8037): their parameters as RFC 8032 gives them.
package struct EdwardsCurve: Sendable {
    /// `"Ed25519"` or `"Ed448"`.
    package let name: String
    /// Length of an encoded point (and of a public key).
    package let byteCount: Int
    /// log2 of the cofactor: doublings that take a point of small order to the identity.
    let cofactorDoublings: Int
    /// Whether the last byte holds only the sign bit (Ed448's 57th byte).
    let lastByteIsSignOnly: Bool

    /// Ed25519: `−x² + y² = 1 + d·x²·y²` over `p = 2^255 − 19`, `d = −121665/121666`, cofactor 8.
    package static let ed25519 = EdwardsCurve(name: "Ed25519", byteCount: 32, cofactorDoublings: 3, lastByteIsSignOnly: false)
    /// Ed448: `x² + y² = 1 + d·x²·y²` over `p = 2^448 − 2^224 − 1`, `d = −39081`, cofactor 4.
    package static let ed448 = EdwardsCurve(name: "Ed448", byteCount: 57, cofactorDoublings: 2, lastByteIsSignOnly: true)
}

/// One check's big numbers, all freed (cleared: they are public values, but one rule for
/// every BIGNUM is simpler) with the context when the checker goes away.
private final class Checker {
    private let curve: EdwardsCurve
    private let ctx: OpaquePointer
    private var owned: [OpaquePointer] = []
    /// The field prime, `a` and `d` of the curve.
    private var p: OpaquePointer?, a: OpaquePointer?, d: OpaquePointer?

    init(_ curve: EdwardsCurve) throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        guard let ctx = BN_CTX_new() else { throw .openSSL("cannot allocate big numbers") }
        self.curve = curve
        self.ctx = ctx
    }

    deinit {
        for bn in owned { BN_free(bn) }
        BN_CTX_free(ctx)
    }

    private func new(_ word: UInt = 0) throws(CryptoError) -> OpaquePointer {
        guard let bn = BN_new() else { throw .openSSL("cannot allocate a big number") }
        owned.append(bn)
        guard BN_set_word(bn, word) == 1 else { throw .openSSL("big number arithmetic failed") }
        return bn
    }

    /// `2^bits`.
    private func power(_ bits: Int32) throws(CryptoError) -> OpaquePointer {
        let r = try new(1)
        guard BN_lshift(r, r, bits) == 1 else { throw .openSSL("big number arithmetic failed") }
        return r
    }

    private func sub(_ x: OpaquePointer, _ y: OpaquePointer) throws(CryptoError) -> OpaquePointer {
        let r = try new()
        guard let p, BN_mod_sub(r, x, y, p, ctx) == 1 else { throw .openSSL("big number arithmetic failed") }
        return r
    }

    private func add(_ x: OpaquePointer, _ y: OpaquePointer) throws(CryptoError) -> OpaquePointer {
        let r = try new()
        guard let p, BN_mod_add(r, x, y, p, ctx) == 1 else { throw .openSSL("big number arithmetic failed") }
        return r
    }

    private func mul(_ x: OpaquePointer, _ y: OpaquePointer) throws(CryptoError) -> OpaquePointer {
        let r = try new()
        guard let p, BN_mod_mul(r, x, y, p, ctx) == 1 else { throw .openSSL("big number arithmetic failed") }
        return r
    }

    /// `x / y` mod p, or `nil` when `y` is 0 mod p.
    private func div(_ x: OpaquePointer, _ y: OpaquePointer) throws(CryptoError) -> OpaquePointer? {
        let inverse = try new()
        guard let p else { throw CryptoError("no field prime") }
        guard BN_mod_inverse(inverse, y, p, ctx) != nil else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return try mul(x, inverse)
    }

    private func equal(_ x: OpaquePointer, _ word: UInt) -> Bool {
        guard let w = try? new(word) else { return false }
        return BN_cmp(x, w) == 0
    }

    /// Sets `p`, `a` and `d` for the curve.
    private func loadParameters() throws(CryptoError) {
        let p: OpaquePointer
        if curve.lastByteIsSignOnly {  // Ed448: p = 2^448 − 2^224 − 1, a = 1, d = −39081
            p = try power(448)
            guard BN_sub(p, p, try power(224)) == 1, BN_sub_word(p, 1) == 1 else { throw .openSSL("big number arithmetic failed") }
            self.p = p
            a = try new(1)
            d = try sub(try new(0), try new(39081))
        } else {  // Ed25519: p = 2^255 − 19, a = −1, d = −121665 / 121666
            p = try power(255)
            guard BN_sub_word(p, 19) == 1 else { throw .openSSL("big number arithmetic failed") }
            self.p = p
            a = try sub(try new(0), try new(1))
            guard let quotient = try div(try new(121665), try new(121666)) else { throw CryptoError("bad curve constant") }
            d = try sub(try new(0), quotient)
        }
    }

    /// See ``EdwardsPointCheck``.
    func problem(_ encoded: [UInt8]) throws(CryptoError) -> String? {
        guard encoded.count == curve.byteCount, let last = encoded.last else {
            return "it is \(encoded.count) bytes, not \(curve.byteCount)"
        }
        let sign = last >> 7
        var yBytes = encoded
        if curve.lastByteIsSignOnly {
            guard last & 0x7F == 0 else { return "its encoding is not canonical (unused bits of the last byte are set)" }
            yBytes.removeLast()
        } else {
            yBytes[yBytes.count - 1] = last & 0x7F
        }
        try loadParameters()
        guard let p, let a, let d else { throw CryptoError("no curve parameters") }
        let y = try new()
        guard yBytes.withUnsafeBufferPointer({ BN_lebin2bn($0.baseAddress, Int32($0.count), y) }) != nil else {
            throw .openSSL("cannot read the point")
        }
        guard BN_cmp(y, p) < 0 else { return "its encoding is not canonical (y is not below the field prime)" }

        // x² = (y² − 1) / (d·y² − a)
        let y2 = try mul(y, y)
        guard let x2 = try div(try sub(y2, try new(1)), try sub(try mul(d, y2), a)) else {
            return "it is not a point of the curve"
        }
        var x: OpaquePointer
        if BN_is_zero(x2) == 1 {
            guard sign == 0 else { return "its encoding is not canonical (x is 0 but the sign bit is set)" }
            x = try new()
        } else {
            let root = try new()
            OpenSSLErrorQueue.clear()
            guard BN_mod_sqrt(root, x2, p, ctx) != nil, BN_cmp(try mul(root, root), x2) == 0 else {
                OpenSSLErrorQueue.clear()
                return "it is not a point of the curve"
            }
            x = root
            if UInt8(BN_is_odd(x)) != sign { x = try sub(try new(0), x) }
        }

        // [h]P by doubling: P + P with the complete twisted Edwards addition law
        // (x₃ = 2xy / (1 + d·x²·y²), y₃ = (y² − a·x²) / (1 − d·x²·y²)).
        var (px, py) = (x, y)
        for _ in 0..<curve.cofactorDoublings {
            let xx = try mul(px, px), yy = try mul(py, py)
            let t = try mul(d, try mul(xx, yy))
            guard let nx = try div(try add(try mul(px, py), try mul(px, py)), try add(try new(1), t)),
                  let ny = try div(try sub(yy, try mul(a, xx)), try sub(try new(1), t))
            else { throw CryptoError("the addition law failed") }
            (px, py) = (nx, ny)
        }
        if BN_is_zero(px) == 1, equal(py, 1) {
            return "it is a point of small order (the identity or another torsion point), for which anyone can forge signatures"
        }
        return nil
    }
}
