/// Ed25519 and Ed448 public keys that key admission must refuse (issue 23 item 1), for every
/// test target that loads keys through one of the library's entries, and the forged
/// signature that verifies for *any* message under the identity key.
///
/// The Ed25519 small-order list is libsodium's `ge25519_has_small_order` blocklist (which
/// ignores the sign bit), written out here as the encodings it covers; the Ed448 list is the
/// 4-torsion of RFC 8032's curve: the identity `(0, 1)`, `(0, −1)` of order 2 and `(±1, 0)` of
/// order 4.
public struct EdwardsTestPoint: Sendable, CustomStringConvertible {
    /// What is wrong with the point, as the library's refusal names it.
    public enum Problem: String, Sendable {
        case smallOrder = "small order"
        case nonCanonical = "not canonical"
        case notOnCurve = "not a point of the curve"
    }

    /// A short name for test output.
    public let name: String
    /// Ed448 (57 bytes) rather than Ed25519 (32 bytes).
    public let ed448: Bool
    /// The encoded public key.
    public let bytes: [UInt8]
    /// The problem the refusal must name.
    public let problem: Problem

    /// A point of either curve (`bytes` as encoded).
    public init(name: String, ed448: Bool, bytes: [UInt8], problem: Problem) {
        self.name = name
        self.ed448 = ed448
        self.bytes = bytes
        self.problem = problem
    }

    public var description: String { "\(ed448 ? "Ed448" : "Ed25519") \(name)" }

    /// The JWK `crv`.
    public var curve: String { ed448 ? "Ed448" : "Ed25519" }

    static func ed25519(_ name: String, _ hex: String, _ problem: Problem) -> EdwardsTestPoint {
        EdwardsTestPoint(name: name, ed448: false, bytes: bytes(hex, count: 32), problem: problem)
    }

    static func ed448(_ name: String, _ hex: String, _ problem: Problem) -> EdwardsTestPoint {
        EdwardsTestPoint(name: name, ed448: true, bytes: bytes(hex, count: 57), problem: problem)
    }

    /// `hex` (little-endian, as encoded) padded with zero bytes to `count`.
    static func bytes(_ hex: String, count: Int) -> [UInt8] {
        guard let decoded = try? Hex.decode(hex), decoded.count <= count else { preconditionFailure("bad test vector \(hex)") }
        return decoded + [UInt8](repeating: 0, count: count - decoded.count)
    }

    /// `bytes` with the sign bit (the top bit of the last byte) set.
    func signed(_ name: String, _ problem: Problem) -> EdwardsTestPoint {
        var copy = bytes
        copy[copy.count - 1] |= 0x80
        return EdwardsTestPoint(name: name, ed448: ed448, bytes: copy, problem: problem)
    }

    // MARK: Ed25519 (p = 2^255 − 19)

    static let ed25519P = "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"
    /// The identity (0, 1): `01 00 … 00`.
    public static let ed25519Identity = ed25519("identity", "01", .smallOrder)
    /// libsodium's blocklist, canonical encodings: y = 0 (order 4, both x), y = 1 (identity),
    /// the two order-8 y values, y = p − 1 (order 2).
    public static let ed25519SmallOrder: [EdwardsTestPoint] = [
        ed25519Identity,
        ed25519("y=0 (order 4)", "00", .smallOrder),
        ed25519("y=0 (order 4)", "00", .smallOrder).signed("y=0 (order 4, other x)", .smallOrder),
        ed25519("order 8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", .smallOrder),
        ed25519("order 8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", .smallOrder).signed("order 8 (other x)", .smallOrder),
        ed25519("order 8 (y = p − y₁)", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", .smallOrder),
        ed25519("order 8 (y = p − y₁)", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", .smallOrder).signed("order 8 (y = p − y₁, other x)", .smallOrder),
        ed25519("y=p−1 (order 2)", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", .smallOrder),
    ]
    /// Non-canonical encodings: the blocklist's y = p and y = p + 1 (0 and 1 unreduced), the
    /// largest y, and x = 0 with the sign bit set (identity and order 2).
    public static let ed25519NonCanonical: [EdwardsTestPoint] = [
        ed25519("y=p (0 unreduced)", ed25519P, .nonCanonical),
        ed25519("y=p+1 (1 unreduced)", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", .nonCanonical),
        ed25519("y=2^255−1", "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", .nonCanonical),
        ed25519Identity.signed("identity with the sign bit (x = 0)", .nonCanonical),
        ed25519("y=p−1", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", .nonCanonical).signed("y=p−1 with the sign bit (x = 0)", .nonCanonical),
    ]
    /// y = 2: x² = 3 / (4d + 1) is not a square mod p.
    public static let ed25519OffCurve = ed25519("off the curve (y = 2)", "02", .notOnCurve)

    // MARK: Ed448 (p = 2^448 − 2^224 − 1)

    static let ed448PMinusOne = "fe" + String(repeating: "ff", count: 27) + "fe" + String(repeating: "ff", count: 27) + "00"
    /// The identity (0, 1): `01 00 … 00` (57 bytes).
    public static let ed448Identity = ed448("identity", "01", .smallOrder)
    /// The 4-torsion: identity, (0, −1) of order 2, (±1, 0) of order 4.
    public static let ed448SmallOrder: [EdwardsTestPoint] = [
        ed448Identity,
        ed448("y=p−1 (order 2)", ed448PMinusOne, .smallOrder),
        ed448("y=0 (order 4, x = p − 1)", "00", .smallOrder),
        ed448("y=0 (order 4)", "00", .smallOrder).signed("y=0 (order 4, x = 1)", .smallOrder),
    ]
    /// Non-canonical encodings: y = p and y = p + 1, a set unused bit in the last byte, and
    /// x = 0 with the sign bit set.
    public static let ed448NonCanonical: [EdwardsTestPoint] = [
        ed448("y=p (0 unreduced)", "ff" + String(repeating: "ff", count: 27) + "fe" + String(repeating: "ff", count: 27) + "00", .nonCanonical),
        ed448("y=p+1 (1 unreduced)", "00" + String(repeating: "00", count: 27) + "ff" + String(repeating: "ff", count: 27) + "00", .nonCanonical),
        ed448("identity with an unused bit set", "01" + String(repeating: "00", count: 55) + "01", .nonCanonical),
        ed448("identity with the top unused bit set", "01" + String(repeating: "00", count: 55) + "40", .nonCanonical),
        ed448Identity.signed("identity with the sign bit (x = 0)", .nonCanonical),
        ed448("y=p−1", ed448PMinusOne, .nonCanonical).signed("y=p−1 with the sign bit (x = 0)", .nonCanonical),
    ]
    /// y = 2: not on the curve.
    public static let ed448OffCurve = ed448("off the curve (y = 2)", "02", .notOnCurve)

    /// Every point key admission must refuse, both curves.
    public static let all: [EdwardsTestPoint] =
        ed25519SmallOrder + ed25519NonCanonical + [ed25519OffCurve] + ed448SmallOrder + ed448NonCanonical + [ed448OffCurve]

    /// The identity of each curve: the key for which ``forgedSignature(ed448:)`` verifies.
    public static let identities: [EdwardsTestPoint] = [ed25519Identity, ed448Identity]

    /// `R = identity, S = 0`: with the identity as the public key, `[S]B = R + [k]A` holds for
    /// every message (both sides are the identity), so an unchecked verifier accepts it.
    public static func forgedSignature(ed448: Bool) -> [UInt8] {
        let size = ed448 ? 57 : 32
        return [1] + [UInt8](repeating: 0, count: size - 1) + [UInt8](repeating: 0, count: size)
    }
}
