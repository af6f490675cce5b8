import FuzzSupport
import TokenKit

/// Fuzz target: compact-JWS parsing and verification never crash and never accept a token
/// the key did not sign.
///
/// The check is exact: every verifying key is generated when the process starts and only its
/// public half is kept (the HMAC secret is random, 64 bytes, and used by nothing but the verifier), and
/// the harness signs nothing. So no input libFuzzer produces can carry a valid signature, and
/// any token a verifier accepts is a forgery. Claim rules are relaxed (no required claims) so
/// that the signature is the only gate.
enum JWSVerifyHarness {
    static let verifiers: [JWTVerifier] = {
        let options = ValidationOptions(requiredClaims: [])
        var keys: [JWTKey] = []
        do {
            for algorithm: JWTAlgorithm in [.es256, .es384, .es512, .es256k, .rs256, .eddsa] {
                keys.append(try JWTKey.generate(for: algorithm).publicKey())
            }
            keys.append(try JWTKey.generateEd448().publicKey())
            keys.append(try JWTKey.generate(for: .hs512))
        } catch {
            FuzzInput.finding("cannot set up the verifying keys: \(error)")
        }
        return keys.map { JWTVerifier(key: $0, options: options) }
    }()

    static func run(_ bytes: [UInt8]) {
        let token = String(decoding: bytes, as: UTF8.self)
        let parsed = try? UnverifiedJWT(parsing: token)
        checkQuickScanner(bytes, parsed: parsed)
        for verifier in verifiers {
            if (try? verifier.verify(token)) != nil { FuzzInput.finding("verify accepted a token no key signed") }
            if (try? verifier.verifyJWS(token)) != nil { FuzzInput.finding("verifyJWS accepted a token no key signed") }
        }
    }

    /// The audit scanner never accepts a token the strict decoder refuses, and reports the
    /// same header and registered claims.
    private static func checkQuickScanner(_ bytes: [UInt8], parsed: UnverifiedJWT?) {
        var scratch = JWTQuickScanner.Scratch()
        let scanned = bytes.withUnsafeBytes { JWTQuickScanner.scan($0, scratch: &scratch) }
        guard let scanned else { return }
        guard let parsed else { FuzzInput.finding("quick scanner accepted a token the strict decoder refuses") }
        let claims = parsed.claims
        guard scanned.algorithmName == parsed.header.algorithmName, scanned.keyID == parsed.header.keyID,
              scanned.issuer == (try? claims.issuer()) ?? nil, scanned.subject == (try? claims.subject()) ?? nil,
              scanned.jwtID == (try? claims.jwtID()) ?? nil, scanned.audience == (try? claims.audience()) ?? nil,
              scanned.expiration?.doubleValue == (try? claims.expiration()) ?? nil,
              scanned.notBefore?.doubleValue == (try? claims.notBefore()) ?? nil,
              scanned.issuedAt?.doubleValue == (try? claims.issuedAt()) ?? nil
        else { FuzzInput.finding("quick scanner and strict decoder disagree on a field") }
    }
}

#if TOKENKIT_FUZZING
/// libFuzzer's per-input entry point (its own `main`, when the linker picks that one, calls it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWSVerify(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    JWSVerifyHarness.run(FuzzInput.bytes(start, count))
    return 0
}
#endif

@main
enum JWSVerifyFuzzer {
    static func main() {
        FuzzInput.main(callback: { start, count in
            JWSVerifyHarness.run(FuzzInput.bytes(start, count))
            return 0
        }, harness: JWSVerifyHarness.run)
    }
}
