import Foundation
import Testing
import TokenKit
import TokenKitCrypto
import TokenKitTestSupport

/// Invalid ECDSA signatures in JWS form: zero r/s (including the "psychic signature"
/// r = s = 0 of CVE-2022-21449), r or s equal to or above the group order n, DER-encoded
/// signatures, wrong lengths. Each is refused with `bad-signature` for every JWS curve.
@Suite("Attack: invalid ECDSA signatures")
struct ECDSASignatureAttackTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let algorithm: JWTAlgorithm
        let curve: ECCurve
        var testDescription: String { algorithm.name }
    }

    static let cases = [
        Case(algorithm: .es256, curve: .p256), Case(algorithm: .es384, curve: .p384),
        Case(algorithm: .es512, curve: .p521), Case(algorithm: .es256k, curve: .secp256k1),
    ]

    /// A genuine token and its parts.
    struct Fixture {
        let verifier: JWTVerifier
        let signingInput: String
        let r: [UInt8]
        let s: [UInt8]
        func token(_ signature: [UInt8]) -> String { "\(signingInput).\(Base64URL.encode(signature))" }
    }

    static func fixture(_ c: Case) throws -> Fixture {
        let key = try JWTKey.generate(for: c.algorithm)
        let token = try JWTSigner(key: key).signJWS(payload: Array("pay".utf8))
        let parts = token.split(separator: ".")
        let signature = try Base64URL.decode(parts[2])
        let size = c.curve.coordinateSize
        #expect(signature.count == 2 * size)
        return Fixture(verifier: JWTVerifier(key: try key.publicKey()), signingInput: "\(parts[0]).\(parts[1])",
                       r: Array(signature[..<size]), s: Array(signature[size...]))
    }

    @Test("the untouched signature verifies (control)", arguments: cases)
    func control(_ c: Case) throws {
        let f = try Self.fixture(c)
        #expect(try f.verifier.verifyJWS(f.token(f.r + f.s)).payload == Array("pay".utf8))
    }

    @Test("psychic signature r = s = 0 (CVE-2022-21449) is refused", arguments: cases)
    func psychic(_ c: Case) throws {
        let f = try Self.fixture(c)
        let zero = [UInt8](repeating: 0, count: c.curve.coordinateSize)
        expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(zero + zero)) }
    }

    @Test("r = 0 or s = 0 alone is refused", arguments: cases)
    func zeroHalf(_ c: Case) throws {
        let f = try Self.fixture(c)
        let zero = [UInt8](repeating: 0, count: c.curve.coordinateSize)
        expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(zero + f.s)) }
        expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(f.r + zero)) }
    }

    @Test("r or s equal to n, or above n (r + n would alias r mod n), is refused", arguments: cases)
    func atOrAboveOrder(_ c: Case) throws {
        let f = try Self.fixture(c)
        let n = c.curve.order
        let max = [UInt8](repeating: 0xFF, count: c.curve.coordinateSize)
        for (r, s) in [(n, f.s), (f.r, n), (max, f.s), (f.r, max), (n, n)] {
            let error = expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(r + s)) }
            #expect(error?.reason.contains("order") == true, "\(error?.reason ?? "")")
        }
        // r + n fits the field width only on P-521 (its field is 528 bits, its order 521):
        // there the aliased r is tried too; `aliasedS` reaches every curve through s.
        if c.curve == .p521 {
            let aliased = try #require(Self.add(f.r, n), "r + n fits P-521's field width")
            expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(aliased + f.s)) }
        }
    }

    /// A key (made by Tests/Interop/ecdsa_small_s.py) for which a genuine signature of the
    /// signing input has a small s, so that s + n still fits the field width on every curve.
    struct SmallS {
        let verifier: JWTVerifier
        let signingInput: String
        let r: [UInt8]
        let s: [UInt8]
        func token(_ signature: [UInt8]) -> String { "\(signingInput).\(Base64URL.encode(signature))" }
    }

    static func smallS(_ c: Case) async throws -> SmallS {
        let signingInput = Base64URL.encode(Array(#"{"alg":"\#(c.algorithm.name)"}"#.utf8)) + "." + Base64URL.encode(Array("pay".utf8))
        let orderHex = c.curve.order.map { String(format: "%02x", $0) }.joined()
        let script = SourceTree.root.appendingPathComponent("Tests/Interop/ecdsa_small_s.py").path
        let run = try await ChildProcess("/usr/bin/env", ["python3", script, c.curve.rawValue, orderHex, signingInput]).run()
        try #require(run.status == 0, "ecdsa_small_s.py failed: \(run.stderrText)")
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: String])
        func bytes(_ name: String) throws -> [UInt8] { try Hex.decode(try #require(fields[name], "no \(name)")) }
        let jwk = #"{"kty":"EC","crv":"\#(c.curve.rawValue)","x":"\#(Base64URL.encode(try bytes("x")))","y":"\#(Base64URL.encode(try bytes("y")))"}"#
        return SmallS(verifier: JWTVerifier(key: try JWTKey(jwk: jwk)), signingInput: signingInput, r: try bytes("r"), s: try bytes("s"))
    }

    /// The aliasing forgery: (r, s + n) is the same signature modulo n. It is built for every
    /// curve from a genuine signature with a small s (for r the same aliasing only fits the
    /// field width on P-521, so s is the half that reaches every curve).
    @Test("s + n, the aliased form of a genuine signature, is refused on every curve", .enabled(if: PythonInterop.enabled, PythonInterop.skipMessage), arguments: cases)
    func aliasedS(_ c: Case) async throws {
        guard PythonInterop.requireAvailable() else { return }
        let f = try await Self.smallS(c)
        #expect(try f.verifier.verifyJWS(f.token(f.r + f.s)).payload == Array("pay".utf8), "control: the genuine small-s signature verifies")
        let aliased = try #require(Self.add(f.s, c.curve.order), "s + n fits the field width")
        let error = expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(f.r + aliased)) }
        #expect(error?.reason.contains("order") == true, "\(error?.reason ?? "")")
    }

    @Test("a DER-encoded signature of the right key and input is refused", arguments: cases)
    func derSignature(_ c: Case) throws {
        let f = try Self.fixture(c)
        let der = Self.der(f.r, f.s)
        let error = expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(der)) }
        #expect(error?.reason.contains("DER") == true, "\(error?.reason ?? "")")
    }

    @Test("signatures one byte short, one byte long, half length or empty are refused", arguments: cases)
    func wrongLengths(_ c: Case) throws {
        let f = try Self.fixture(c)
        let good = f.r + f.s
        for bad in [Array(good.dropLast()), good + [0], [0] + good, f.r, Array(good.dropFirst()), []] {
            expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(bad)) }
        }
    }

    @Test("swapping r and s, or flipping one bit, is refused", arguments: cases)
    func tampered(_ c: Case) throws {
        let f = try Self.fixture(c)
        expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(f.s + f.r)) }
        var flipped = f.r + f.s
        flipped[flipped.count - 1] ^= 0x01
        expectJWTError(.badSignature) { try f.verifier.verifyJWS(f.token(flipped)) }
    }

    /// a + b as big-endian numbers of the same width; nil on overflow.
    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: a.count), carry = 0
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            let sum = Int(a[i]) + Int(b[i]) + carry
            out[i] = UInt8(sum & 0xFF)
            carry = sum >> 8
        }
        return carry == 0 ? out : nil
    }

    static func der(_ r: [UInt8], _ s: [UInt8]) -> [UInt8] {
        func integer(_ v: [UInt8]) -> [UInt8] {
            var bytes = Array(v.drop { $0 == 0 })
            if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
            return [0x02] + length(bytes.count) + bytes
        }
        func length(_ n: Int) -> [UInt8] { n < 0x80 ? [UInt8(n)] : [0x81, UInt8(n)] }
        let body = integer(r) + integer(s)
        return [0x30] + length(body.count) + body
    }
}
