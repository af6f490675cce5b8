import FuzzSupport
import Foundation
import TokenKit

/// Fuzz target: JWK, JWKS and PEM loading never crash, and every key that loads is one
/// TokenKit can use consistently.
///
/// Input: a first byte below 0x80 means the whole input is text, tried as PEM, JWK and JWKS,
/// and through ``KeyFile`` (the library's format detection, as `tokenkit` reads key files) for
/// signing and for verification.
/// A first byte from 0x80 means the rest is DER, wrapped in the PEM label the first byte
/// picks (so mutations reach the DER parsers instead of breaking the base64 armour).
///
/// For every key that loads, these must hold (any failure is a finding): its public JWK and
/// its public PEM load again, with the same RFC 7638 thumbprint; a key that can sign makes a
/// token that its own public half, reloaded from that JWK, verifies.
enum KeyLoadingHarness {
    static let pemLabels = ["PUBLIC KEY", "PRIVATE KEY", "CERTIFICATE", "RSA PUBLIC KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"]

    static func run(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        var keys: [JWTKey] = []
        if first < 0x80 {
            let text = String(decoding: bytes, as: UTF8.self)
            if let key = try? JWTKey(pem: text) { keys.append(key) }
            if let key = try? JWTKey(jwk: text) { keys.append(key) }
            if let set = try? JWKSet(json: text) { keys += set.keys }
            for purpose in [KeyFile.Purpose.signing, .verification] {
                if let file = try? KeyFile(contents: bytes, for: purpose) {
                    if purpose == .verification, file.keySet.keys.contains(where: { $0.canSign && !$0.isSecret }) {
                        FuzzInput.finding("a key file loaded for verification kept a private key")
                    }
                    keys += file.keySet.keys
                }
            }
        } else {
            let label = pemLabels[Int(first & 0x7F) % pemLabels.count]
            let body = Data(bytes.dropFirst()).base64EncodedString(options: [.lineLength64Characters])
            if let key = try? JWTKey(pem: "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n") { keys.append(key) }
        }
        for key in keys { check(key) }
    }

    /// The key that `publicPEM` loads, or `nil` when it is refused.
    ///
    /// OpenSSL's RSA public-key check tests the modulus with Miller–Rabin on random bases
    /// (SP 800-56B): for a modulus that is not a product of two large primes (a fuzzer's
    /// modulus can have many medium factors), a random base sometimes exposes a factor, so the
    /// same key can pass one load and fail the next. A refusal for that reason is retried; an
    /// export that is really wrong fails every time.
    private static func reload(of key: JWTKey, _ load: () throws(JWTError) -> JWTKey) -> Result<JWTKey, JWTError> {
        var last = JWTError(code: .invalidKey, reason: "not tried")
        for _ in 0..<(key.keyType == "RSA" ? 16 : 1) {
            do { return .success(try load()) } catch {
                last = error
                guard key.keyType == "RSA", error.reason.contains("the public key is invalid") else { break }
            }
        }
        return .failure(last)
    }

    private static func check(_ key: JWTKey) {
        _ = key.description
        if key.isSecret {
            guard (try? key.jwk(includingPrivate: true)).flatMap({ try? JWTKey(jwk: $0) }) != nil else {
                FuzzInput.finding("a loaded secret's JWK does not load again")
            }
            return
        }
        let thumbprint: String
        let publicJWK: String
        let publicPEM: String
        do {
            thumbprint = try key.thumbprint()
            publicJWK = try key.jwk()
            publicPEM = try key.publicKeyPEM()
        } catch {
            FuzzInput.finding("a loaded \(key.keyType) key cannot be exported: \(error.code)")
        }
        let fromJWK: JWTKey
        switch reload(of: key, { () throws(JWTError) in try JWTKey(jwk: publicJWK) }) {
        case .success(let loaded): fromJWK = loaded
        case .failure(let error): FuzzInput.finding("a loaded \(key.keyType) key's public JWK is refused: \(error.code)")
        }
        guard case .success(let fromPEM) = reload(of: key, { () throws(JWTError) in try JWTKey(pem: publicPEM) }) else {
            FuzzInput.finding("a loaded \(key.keyType) key's public PEM is refused")
        }
        guard (try? fromJWK.thumbprint()) == thumbprint, (try? fromPEM.thumbprint()) == thumbprint else {
            FuzzInput.finding("a loaded \(key.keyType) key's thumbprint changes through JWK or PEM")
        }
        guard key.canSign, let algorithm = key.algorithms.sorted().first else { return }
        do {
            let token = try JWTSigner(key: key, algorithm: algorithm).sign(JWTClaims())
            let verifier = JWTVerifier(key: fromJWK, options: ValidationOptions(algorithms: [algorithm], requiredClaims: []))
            _ = try verifier.verify(token)
        } catch {
            FuzzInput.finding("a loaded \(key.keyType) private key signs a token its public half refuses: \(error.code)")
        }
    }
}

#if TOKENKIT_FUZZING
/// libFuzzer's per-input entry point (its own `main`, when the linker picks that one, calls it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyLoading(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    KeyLoadingHarness.run(FuzzInput.bytes(start, count))
    return 0
}
#endif

@main
enum KeyLoadingFuzzer {
    static func main() {
        FuzzInput.main(callback: { start, count in
            KeyLoadingHarness.run(FuzzInput.bytes(start, count))
            return 0
        }, harness: KeyLoadingHarness.run)
    }
}
