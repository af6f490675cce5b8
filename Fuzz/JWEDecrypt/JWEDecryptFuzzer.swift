import FuzzSupport
import TokenKit

/// Fuzz target: compact-JWE parsing and decryption never crash, never hang, never accept a
/// token no one could have encrypted, and never tell one decryption failure from another.
///
/// The check is exact: every decrypting key is generated when the process starts and kept in
/// memory only (random shared secrets for A*KW and `dir`, fresh RSA, P-256, P-384 and X25519
/// key pairs), and the harness encrypts nothing. Producing a token one of them decrypts would
/// take the secret, or an RSA encryption or an ECDH to the fresh public key — nothing
/// libFuzzer's mutations can do — so any success is a finding. Every decryption failure must
/// carry the one reason (no oracle).
enum JWEDecryptHarness {
    static let decrypters: [JWEDecrypter] = {
        var keys: [JWEKey] = []
        do {
            for length in [16, 24, 32, 48, 64] {
                keys.append(try JWEKey.symmetric(secret: (0..<length).map { _ in UInt8.random(in: 0...255) }))
            }
            keys.append(try JWEKey.generate(for: .rsaOAEP))
            for curve in [JWECurve.p256, .p384, .x25519] { keys.append(try JWEKey.generate(for: .ecdhES, curve: curve)) }
            return try keys.map { try JWEDecrypter(key: $0) }
        } catch {
            FuzzInput.finding("cannot set up the decrypting keys: \(error)")
        }
    }()

    static func run(_ bytes: [UInt8]) {
        let token = String(decoding: bytes, as: UTF8.self)
        let header = try? JWEHeader(compactJWE: token)
        for decrypter in decrypters {
            do {
                _ = try decrypter.decrypt(token)
                FuzzInput.finding("decrypt accepted a token no key encrypted")
            } catch {
                if header == nil, error.code == .decryptionFailed { FuzzInput.finding("decryption ran on a token whose header was refused") }
                if error.code == .decryptionFailed, error.reason != "decryption failed" || error.underlyingError != nil {
                    FuzzInput.finding("a decryption failure told its cause apart")
                }
            }
        }
    }
}

#if TOKENKIT_FUZZING
/// libFuzzer's per-input entry point (its own `main`, when the linker picks that one, calls it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWEDecrypt(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    JWEDecryptHarness.run(FuzzInput.bytes(start, count))
    return 0
}
#endif

@main
enum JWEDecryptFuzzer {
    static func main() {
        FuzzInput.main(callback: { start, count in
            JWEDecryptHarness.run(FuzzInput.bytes(start, count))
            return 0
        }, harness: JWEDecryptHarness.run)
    }
}
