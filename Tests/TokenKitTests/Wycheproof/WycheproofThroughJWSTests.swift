import Foundation
import Testing
@testable import TokenKit

/// The Wycheproof ECDSA (P1363), RSA and EdDSA signature vectors run through TokenKit's JWS
/// verification, not only the crypto layer: each group's key is loaded as a `JWTKey` from its
/// JWK and from its PEM, and each vector's signature goes through the verifier's key selection
/// and signature check (`JWTVerifier.checkSignature`, the step `verify`/`verifyJWS` run after
/// splitting the token) as the JWS signature of the vector's message. A Wycheproof message is
/// not a JWS signing input, so the compact form is checked separately: the same signature
/// bytes as the third part of a token must be refused as a bad signature, nothing else.
///
/// Counts are exact per file: a vector silently skipped, or a verdict flipped, changes them.
@Suite("Wycheproof signatures through JWS verification")
struct WycheproofThroughJWSTests {
    struct VectorFile: Sendable, CustomTestStringConvertible {
        let file: String
        let algorithm: JWTAlgorithm
        let valid: Int
        let invalid: Int
        /// tcIds whose Wycheproof result is "acceptable" (either verdict is allowed).
        let acceptable: [Int]
        /// Valid and invalid vectors in the groups that carry a JWK (some ECDSA groups have
        /// only DER/PEM keys); `nil` when every group has one.
        var withJWK: (valid: Int, invalid: Int)? = nil
        var testDescription: String { "\(algorithm) \(file)" }
    }

    static let files: [VectorFile] = [
        VectorFile(file: "ecdsa_secp256r1_sha256_p1363_test.json", algorithm: .es256, valid: 173, invalid: 89, acceptable: [], withJWK: (169, 83)),
        VectorFile(file: "ecdsa_secp384r1_sha384_p1363_test.json", algorithm: .es384, valid: 193, invalid: 87, acceptable: [], withJWK: (189, 81)),
        VectorFile(file: "ecdsa_secp521r1_sha512_p1363_test.json", algorithm: .es512, valid: 231, invalid: 87, acceptable: [], withJWK: (227, 81)),
        VectorFile(file: "ecdsa_secp256k1_sha256_p1363_test.json", algorithm: .es256k, valid: 167, invalid: 85, acceptable: [], withJWK: (163, 79)),
        VectorFile(file: "rsa_signature_2048_sha256_test.json", algorithm: .rs256, valid: 9, invalid: 249, acceptable: [8]),
        VectorFile(file: "rsa_pss_2048_sha256_mgf1_32_test.json", algorithm: .ps256, valid: 63, invalid: 45, acceptable: []),
        VectorFile(file: "ed25519_test.json", algorithm: .eddsa, valid: 88, invalid: 63, acceptable: []),
        VectorFile(file: "ed448_test.json", algorithm: .eddsa, valid: 17, invalid: 70, acceptable: []),
    ]

    /// What one key source made of a file's vectors.
    struct Tally: Equatable, CustomStringConvertible {
        var accepted = 0
        var refused = 0
        var description: String { "accepted \(accepted), refused \(refused)" }
    }

    @Test("exactly the valid vectors verify, with the key from its JWK and from its PEM", arguments: files)
    func exactVerdicts(_ vectors: VectorFile) throws {
        var tallies: [String: Tally] = [:]
        var acceptableSeen: [Int] = []
        for group in try Wycheproof.signatureGroups(vectors.file) {
            let keys = try Self.keys(group, algorithm: vectors.algorithm)
            for test in group.tests {
                if test.result == "acceptable" { acceptableSeen.append(test.tcId) }
                for (source, key) in keys {
                    let verdict = Self.verdict(TestSupport.hex(test.sig), for: TestSupport.hex(test.msg),
                                               algorithm: vectors.algorithm, key: key)
                    if test.result == "acceptable" { continue }
                    #expect(verdict == (test.result == "valid"),
                            "\(vectors.file) tcId \(test.tcId) (\(test.result), \(test.comment)) via \(source): accepted=\(verdict)")
                    tallies[source, default: Tally()].accepted += verdict ? 1 : 0
                    tallies[source, default: Tally()].refused += verdict ? 0 : 1
                }
            }
        }
        #expect(acceptableSeen == vectors.acceptable)
        #expect(tallies.keys.sorted() == ["JWK", "PEM"])
        #expect(tallies["PEM"] == Tally(accepted: vectors.valid, refused: vectors.invalid), "\(vectors.file) via PEM")
        let jwk = vectors.withJWK ?? (vectors.valid, vectors.invalid)
        #expect(tallies["JWK"] == Tally(accepted: jwk.valid, refused: jwk.invalid), "\(vectors.file) via JWK")
    }

    @Test("every vector's signature, as the third part of a compact JWS, is refused as a bad signature", arguments: files)
    func compactFormRefusesForeignSignatures(_ vectors: VectorFile) throws {
        var refused = 0
        let header = TestSupport.b64(#"{"alg":"\#(vectors.algorithm.name)"}"#)
        for group in try Wycheproof.signatureGroups(vectors.file) {
            guard let (_, key) = try Self.keys(group, algorithm: vectors.algorithm).first else { continue }
            let verifier = JWTVerifier(key: key.withKeyID(nil), options: ValidationOptions(requiredClaims: []))
            for test in group.tests {
                let token = "\(header).\(Base64URL.encode(TestSupport.hex(test.msg))).\(Base64URL.encode(TestSupport.hex(test.sig)))"
                do {
                    _ = try verifier.verifyJWS(token)
                    Issue.record("\(vectors.file) tcId \(test.tcId): a signature over another message was accepted")
                } catch {
                    #expect(error.code == .badSignature, "\(vectors.file) tcId \(test.tcId): \(error.code) \(error.reason)")
                    if error.code == .badSignature { refused += 1 }
                }
            }
        }
        #expect(refused == vectors.valid + vectors.invalid + vectors.acceptable.count)
    }

    /// The group's public key as a `JWTKey`, from its JWK and from its PEM, each bound to
    /// `algorithm`.
    static func keys(_ group: Wycheproof.SignatureGroup, algorithm: JWTAlgorithm) throws -> [(String, JWTKey)] {
        var keys: [(String, JWTKey)] = []
        if var jwk = group.publicKeyJwk ?? group.keyJwk {
            jwk["alg"] = nil  // Wycheproof's own alg names (e.g. "ES256K" spellings) are not what is tested here
            jwk["kid"] = nil
            let text = String(decoding: try JSONSerialization.data(withJSONObject: jwk, options: [.sortedKeys]), as: UTF8.self)
            keys.append(("JWK", try JWTKey(jwk: text).restricted(to: [algorithm])))
        }
        keys.append(("PEM", try JWTKey(pem: group.publicKeyPem, algorithms: [algorithm])))
        return keys
    }

    /// Whether the verifier's signature step accepts `signature` over `message`.
    static func verdict(_ signature: [UInt8], for message: [UInt8], algorithm: JWTAlgorithm, key: JWTKey) -> Bool {
        let keys = JWKSet(keys: [key])
        do {
            let candidates = try keys.candidates(forKeyID: nil, algorithm: algorithm)
            try JWTVerifier.checkSignature(signature, for: message, algorithm: algorithm, candidates: candidates)
            return true
        } catch {
            return false
        }
    }
}
