import Testing
@testable import TokenKitCrypto
import TokenKitTestSupport

/// The Edwards half of key admission (issue 23 item 1): the wrapper's own check, before any
/// entry. Every vector of ``EdwardsTestPoint`` (libsodium's Ed25519 blocklist, the Ed448
/// 4-torsion, non-canonical and off-curve encodings) is refused with its reason; real keys
/// pass; the check runs inside `PKey`'s one gate, so a raw key refused here never becomes a
/// `PKey`.
@Suite("Crypto: Edwards point admission")
struct EdwardsPointCheckTests {
    static func curve(_ point: EdwardsTestPoint) -> EdwardsCurve { point.ed448 ? .ed448 : .ed25519 }

    @Test("each small-order, non-canonical or off-curve encoding is refused, naming why", arguments: EdwardsTestPoint.all)
    func refused(_ point: EdwardsTestPoint) {
        let problem = EdwardsPointCheck.problem(point.bytes, curve: Self.curve(point))
        #expect(problem?.contains(point.problem.rawValue) == true, "\(point): \(problem ?? "accepted")")
    }

    @Test("libsodium's Ed25519 blocklist, sign bit ignored as libsodium does: every entry refused")
    func libsodiumBlocklist() throws {
        // ge25519_has_small_order's table, verbatim: 0, 1, the two order-8 y, p−1, p, p+1.
        let blocklist = [
            "0000000000000000000000000000000000000000000000000000000000000000",
            "0100000000000000000000000000000000000000000000000000000000000000",
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        ]
        for hex in blocklist {
            for sign: UInt8 in [0, 0x80] {
                var point = try Hex.decode(hex)
                point[31] |= sign
                #expect(EdwardsPointCheck.problem(point, curve: .ed25519) != nil, "\(hex) sign \(sign)")
            }
        }
    }

    @Test("generated keys pass, both curves (the check is not a blanket refusal)")
    func realKeysPass() throws {
        for _ in 0..<50 {
            for (type, curve) in [(AsymmetricKeyType.ed25519, EdwardsCurve.ed25519), (.ed448, .ed448)] {
                let key = try PKey.generate(type)
                let raw = try key.rawPublicKey()
                #expect(EdwardsPointCheck.problem(raw, curve: curve) == nil, "\(curve.name) \(raw)")
                // The same point with the other sign is the negated point: also a real key.
                var negated = raw
                negated[negated.count - 1] ^= 0x80
                #expect(EdwardsPointCheck.problem(negated, curve: curve) == nil)
            }
        }
    }

    @Test("the gate: a public key refused by the check never becomes a PKey (SPKI)", arguments: EdwardsTestPoint.all)
    func gateRefusesSPKI(_ point: EdwardsTestPoint) {
        let spki = DERWriter.edwardsSPKI(ed448: point.ed448, point: point.bytes)
        #expect(throws: CryptoError.self) { _ = try PKey(subjectPublicKeyInfo: spki) }
    }

    @Test("the gate runs on the public half OpenSSL derives for a private key", arguments: [AsymmetricKeyType.ed25519, .ed448])
    func privateKeysPass(_ type: AsymmetricKeyType) throws {
        let key = try PKey.generate(type)
        let reloaded = try PKey(pem: key.pkcs8PEM())
        #expect(reloaded.isPrivate)
        #expect(try reloaded.rawPublicKey() == key.rawPublicKey())
    }

    @Test("a wrong length is refused, not read past", arguments: [0, 31, 33, 56, 58])
    func wrongLength(_ count: Int) {
        let curve: EdwardsCurve = count > 40 ? .ed448 : .ed25519
        #expect(EdwardsPointCheck.problem([UInt8](repeating: 0x42, count: count), curve: curve)?.contains("bytes") == true)
    }
}
