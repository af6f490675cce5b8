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
        checkInspection(bytes, parsed: parsed)
        for verifier in verifiers {
            if (try? verifier.verify(token)) != nil { FuzzInput.finding("verify accepted a token no key signed") }
            if (try? verifier.verifyJWS(token)) != nil { FuzzInput.finding("verifyJWS accepted a token no key signed") }
        }
    }

    /// The audit's inspection never accepts a token the strict decoder refuses, and reports
    /// the same header and registered claims.
    private static func checkInspection(_ bytes: [UInt8], parsed: UnverifiedJWT?) {
        var scratch = InspectionScratch()
        let inspected = bytes.withUnsafeBytes { token in
            Result { () throws(InspectionFailure) in
                try TokenInspection.inspect(token, limits: .default, requiredClaims: [], now: 0, scratch: &scratch)
            }
        }
        guard case .success(let read) = inspected else { return }
        guard let parsed else { FuzzInput.finding("inspection accepted a token the strict decoder refuses") }
        let claims = parsed.claims
        guard read.algorithm == parsed.header.algorithmName, read.keyID == parsed.header.keyID,
              read.issuer == (try? claims.issuer()) ?? nil, read.subject == (try? claims.subject()) ?? nil,
              read.jwtID == (try? claims.jwtID()) ?? nil, read.audience == (try? claims.audience()) ?? nil,
              read.expiration?.doubleValue == (try? claims.expiration()) ?? nil,
              read.notBefore?.doubleValue == (try? claims.notBefore()) ?? nil,
              read.issuedAt?.doubleValue == (try? claims.issuedAt()) ?? nil
        else { FuzzInput.finding("inspection and strict decoder disagree on a field") }
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
