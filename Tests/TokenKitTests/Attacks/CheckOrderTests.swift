import Testing
import TokenKit

/// The verifier's order of checks: nothing in the payload is parsed or trusted before the
/// signature has been checked, and header policy (alg, crit) is decided before any key is
/// used. A token failing several checks reports the earliest.
@Suite("Attack: order of checks")
struct CheckOrderTests {
    static let wrongSignature = Base64URL.encode([UInt8](repeating: 0xAB, count: 32))

    @Test("a payload that is not JSON is not parsed when the signature is wrong")
    func payloadNotParsedBeforeSignature() throws {
        let header = TestSupport.b64(#"{"alg":"HS256"}"#)
        for payload in ["not json", #"{"a":1,"a":2}"#, String(repeating: "[", count: 5000)] {
            let token = "\(header).\(TestSupport.b64(payload)).\(Self.wrongSignature)"
            expectJWTError(.badSignature) { try TokenForge.verifier().verify(token) }
        }
    }

    @Test("an expired token with a wrong signature is reported as a bad signature, not as expired")
    func claimsNotEvaluatedBeforeSignature() throws {
        let header = TestSupport.b64(#"{"alg":"HS256"}"#)
        let token = "\(header).\(TestSupport.b64(#"{"exp":1}"#)).\(Self.wrongSignature)"
        expectJWTError(.badSignature) { try TokenForge.verifier(ValidationOptions(clock: FixedClock(unixTime: TokenForge.now))).verify(token) }
    }

    @Test("alg none is refused before anything else is looked at")
    func unsecuredFirst() throws {
        let token = TestSupport.b64(#"{"alg":"none","crit":["x"],"kid":"nobody"}"#) + "." + TestSupport.b64("not json") + "."
        expectJWTError(.unsecured) { try TokenForge.verifier().verify(token) }
    }

    @Test("a disallowed alg is refused before crit and before key selection")
    func allowListBeforeCrit() throws {
        var options = ValidationOptions(requiredClaims: [])
        options.algorithms = [.hs512]
        let token = TokenForge.token(header: #"{"alg":"HS256","crit":["x"],"kid":"nobody"}"#)
        expectJWTError(.algorithmNotAllowed) { try TokenForge.verifier(options).verify(token) }
    }

    @Test("crit is refused before key selection (an unknown kid is not reached)")
    func critBeforeKid() throws {
        let token = TokenForge.token(header: #"{"alg":"HS256","crit":["x"],"kid":"nobody"}"#)
        let verifier = JWTVerifier(keys: JWKSet(keys: [try TokenForge.key().withKeyID("k")]), options: ValidationOptions(requiredClaims: []))
        expectJWTError(.unsupportedCritical) { try verifier.verify(token) }
    }
}
