import BenchCore
import CBenchSupport
import Foundation
import TokenKit

/// Issue 28's rows: decrypt A256GCM + ECDH-ES (P-256), decrypt A256GCM + RSA-OAEP-256 (2048),
/// and x5c verify of a 3-level ES256 chain, each beside the raw OpenSSL primitives it is made
/// of (raw_jose.c), measured interleaved within each run (goal: TokenKit ≥ 0.9× raw).
///
/// - ECDH-ES: raw = the epk from its coordinates + ECDH + the Concat KDF (one SHA-256) +
///   AES-256-GCM open; TokenKit = `JWEDecrypter.decrypt` of the compact token (parsing, the
///   epk's admission, the same primitives).
/// - RSA-OAEP-256: raw = RSA-OAEP decrypt + AES-256-GCM open; TokenKit = `decrypt`.
/// - x5c: raw = parse leaf and intermediate, `X509_verify_cert` at a fixed time, ECDSA verify
///   of the JWS; TokenKit = `X5CVerifier.verify` (chain, signature, claims), whose verified
///   chains are cached per distinct chain, the validity window re-checked on every token.
enum JOSEBench {
    struct Row {
        let name: String
        let tokenkit: Double
        let raw: Double
        var ratio: Double { tokenkit / raw }
    }

    static let payload = Array(#"{"sub":"user-1234","iss":"https://id.example","aud":"api","iat":1800000000,"exp":1900000000,"name":"Bench User","roles":["reader","writer"],"tenant":"acme"}"#.utf8)

    static func run(options: Options) throws -> [Row] {
        var rows: [Row] = []
        for (name, make) in [("decrypt ECDH-ES A256GCM", ecdhES), ("decrypt RSA-OAEP-256 A256GCM", rsaOAEP256), ("x5c verify ES256 3-level, cached", x5c)] {
            if let only = options.joseRow, !name.contains(only) { continue }
            progress("\(name)…\n")
            let (tokenkit, raw) = try make()
            var a: [Double] = [], b: [Double] = []
            for _ in 0..<options.runs {
                // --lib tokenkit or --lib openssl-raw times one side alone (for a profiler).
                if options.libs.contains("tokenkit") { a.append(try measure(seconds: options.seconds, tokenkit)) }
                if options.libs.contains("openssl-raw") { b.append(try measure(seconds: options.seconds, raw)) }
            }
            rows.append(Row(name: name, tokenkit: median(a), raw: median(b)))
        }
        return rows
    }

    typealias Pair = (tokenkit: () throws -> Void, raw: () throws -> Void)

    /// The five parts of a compact JWE, decoded (part 1 kept as text: it is the AAD).
    static func parts(_ token: String) throws -> (aad: [UInt8], header: JSONObject, ek: [UInt8], iv: [UInt8], ct: [UInt8], tag: [UInt8]) {
        let p = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let header = try JSONValue(parsing: String(decoding: try Base64URL.decode(p[0]), as: UTF8.self), maxDepth: 4).objectValue ?? JSONObject()
        return (Array(p[0].utf8), header, try Base64URL.decode(p[1]), try Base64URL.decode(p[2]), try Base64URL.decode(p[3]), try Base64URL.decode(p[4]))
    }

    static func rawJWE(kind: Int32, pem: String, x: [UInt8], y: [UInt8], otherInfo: [UInt8], token: String) throws -> OpaquePointer {
        let t = try parts(token)
        let pemBytes = Array(pem.utf8)
        let handle = cbench_jwe_new(kind, pemBytes, pemBytes.count, x.isEmpty ? nil : x, y.isEmpty ? nil : y, otherInfo, otherInfo.count,
                                    t.ek, t.ek.count, t.iv, t.aad, t.aad.count, t.ct, t.ct.count, t.tag)
        guard let handle, cbench_jwe_run(handle) == 1 else { throw RawFailure() }
        return handle
    }

    static func ecdhES() throws -> Pair {
        let key = try JWEKey.generate(for: .ecdhES, curve: .p256)
        let token = try JWEEncrypter(recipient: try key.publicKey(), algorithm: .ecdhES, encryption: .a256GCM).encrypt(payload)
        let decrypter = try JWEDecrypter(key: key)
        guard try decrypter.decrypt(token).plaintext == payload else { throw RawFailure() }
        let epk = try parts(token).header["epk"]?.objectValue
        let x = try Base64URL.decode(epk?["x"]?.stringValue ?? ""), y = try Base64URL.decode(epk?["y"]?.stringValue ?? "")
        func field(_ bytes: [UInt8]) -> [UInt8] { [0, 0, 0, UInt8(bytes.count)] + bytes }
        let otherInfo = field(Array("A256GCM".utf8)) + field([]) + field([]) + [0, 0, 1, 0]
        let raw = try rawJWE(kind: Int32(CBENCH_JWE_ECDH_ES.rawValue), pem: try key.privateKeyPEM(), x: x, y: y, otherInfo: otherInfo, token: token)
        return ({ _ = try decrypter.decrypt(token) }, { guard cbench_jwe_run(raw) == 1 else { throw RawFailure() } })
    }

    static func rsaOAEP256() throws -> Pair {
        let key = try JWEKey.generate(for: .rsaOAEP256)
        let token = try JWEEncrypter(recipient: try key.publicKey(), algorithm: .rsaOAEP256, encryption: .a256GCM).encrypt(payload)
        let decrypter = try JWEDecrypter(key: key)
        let raw = try rawJWE(kind: Int32(CBENCH_JWE_RSA_OAEP_256.rawValue), pem: try key.privateKeyPEM(), x: [], y: [], otherInfo: [], token: token)
        return ({ _ = try decrypter.decrypt(token) }, { guard cbench_jwe_run(raw) == 1 else { throw RawFailure() } })
    }

    static func x5c() throws -> Pair {
        let now: Int64 = 1_800_000_000
        var root = [UInt8](repeating: 0, count: 4096), inter = root, leaf = root, pem = root
        var rootLen = root.count, interLen = inter.count, leafLen = leaf.count, pemLen = pem.count
        guard cbench_make_es256_chain(now, &root, &rootLen, &inter, &interLen, &leaf, &leafLen, &pem, &pemLen) == 1 else { throw RawFailure() }
        (root, inter, leaf, pem) = (Array(root.prefix(rootLen)), Array(inter.prefix(interLen)), Array(leaf.prefix(leafLen)), Array(pem.prefix(pemLen)))
        let signingKey = try JWTKey(pem: String(decoding: pem, as: UTF8.self))
        let x5c = JSONValue.array([.string(Data(leaf).base64EncodedString()), .string(Data(inter).base64EncodedString())])
        let token = try JWTSigner(key: signingKey, algorithm: .es256).signJWS(payload: payload, header: JWTHeaderFields(custom: JSONObject([("x5c", x5c)])))
        let options = ValidationOptions(algorithms: [.es256], issuers: ["https://id.example"], audiences: ["api"], clock: FixedClock(Date(timeIntervalSince1970: TimeInterval(now))))
        let verifier = try X5CVerifier(trustedRoots: [try X509Certificate(derEncoded: root)], options: options)
        _ = try verifier.verify(token)
        let dot = token.utf8.lastIndex(of: UInt8(ascii: "."))!
        let input = Array(token.utf8[..<dot])
        let signature = try Base64URL.decode(String(token[token.index(after: dot)...]))
        let der = derSignature(signature)
        guard let raw = cbench_x5c_new(root, root.count, inter, inter.count, leaf, leaf.count, input, input.count, der, der.count, now),
              cbench_x5c_run(raw) == 1 else { throw RawFailure() }
        return ({ _ = try verifier.verify(token) }, { guard cbench_x5c_run(raw) == 1 else { throw RawFailure() } })
    }

    /// ECDSA-Sig-Value DER from a JWS r || s (P-256).
    static func derSignature(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var v = Array(bytes.drop { $0 == 0 })
            if v.isEmpty { v = [0] }
            if v[0] & 0x80 != 0 { v.insert(0, at: 0) }
            return [0x02, UInt8(v.count)] + v
        }
        let body = integer(raw[0..<32]) + integer(raw[32...])
        return [0x30, UInt8(body.count)] + body
    }
}
