import Testing
import TokenKit

/// Oversized and deeply nested input is refused quickly with an error, never a crash.
@Suite("Attack: size and nesting limits")
struct LimitsTests {
    @Test("a token over the default 32 KiB limit is refused as too large before parsing")
    func tooLarge() throws {
        let padding = String(repeating: "a", count: 33 * 1024)
        let token = TokenForge.token(payload: #"{"sub":"\#(padding)"}"#)
        expectJWTError(.tooLarge) { try TokenForge.verifier().verify(token) }
        expectJWTError(.tooLarge) { try UnverifiedJWT(parsing: token) }
        // Garbage of that size is refused the same way (no parsing happens).
        expectJWTError(.tooLarge) { try TokenForge.verifier().verify(String(repeating: ".", count: 40_000)) }
    }

    @Test("a token exactly at a custom limit verifies; one byte more is refused")
    func customLimit() throws {
        let token = TokenForge.token()
        let count = token.utf8.count
        let atLimit = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now), limits: ParsingLimits(maxTokenBytes: count))
        #expect(try TokenForge.verifier(atLimit).verify(token).claims["sub"] == .string("alice"))
        let below = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now), limits: ParsingLimits(maxTokenBytes: count - 1))
        expectJWTError(.tooLarge) { try TokenForge.verifier(below).verify(token) }
    }

    @Test("10,000 nested arrays in the payload throw instead of overflowing the stack")
    func deepPayload() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let token = TokenForge.token(payload: #"{"a":\#(deep)}"#)
        let huge = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now), limits: ParsingLimits(maxTokenBytes: 1 << 20))
        let error = expectJWTError(.malformed) { try TokenForge.verifier(huge).verify(token) }
        #expect(error?.reason.contains("nesting") == true, "\(error?.reason ?? "")")
    }

    @Test("10,000 unclosed '[' and '{' in the header throw instead of crashing")
    func deepHeader() throws {
        let huge = ValidationOptions(requiredClaims: [], limits: ParsingLimits(maxTokenBytes: 1 << 20))
        for opener in ["[", "{\"a\":"] {
            let token = TokenForge.token(header: #"{"alg":"HS256","x":"# + String(repeating: opener, count: 10_000))
            expectJWTError(.malformed) { try TokenForge.verifier(huge).verify(token) }
        }
    }

    @Test("nesting exactly at maxDepth is accepted; one deeper is refused")
    func depthBoundary() throws {
        // The payload object itself is depth 1, so 15 arrays inside reach the default 16.
        let atLimit = TokenForge.token(payload: #"{"a":\#(String(repeating: "[", count: 15))\#(String(repeating: "]", count: 15))}"#)
        #expect(try TokenForge.verifier().verify(atLimit).claims["a"] != nil)
        let over = TokenForge.token(payload: #"{"a":\#(String(repeating: "[", count: 16))\#(String(repeating: "]", count: 16))}"#)
        expectJWTError(.malformed) { try TokenForge.verifier().verify(over) }
    }

    @Test("a JSON number longer than 64 characters is refused")
    func longNumber() throws {
        let token = TokenForge.token(payload: #"{"n":\#(String(repeating: "9", count: 65))}"#)
        expectJWTError(.malformed) { try TokenForge.verifier().verify(token) }
        let ok = TokenForge.token(payload: #"{"n":\#(String(repeating: "9", count: 64))}"#)
        #expect(try TokenForge.verifier().verify(ok).claims["n"] != nil)
    }

    @Test("a JWK or JWKS nested deeper than a key can be is refused")
    func deepJWK() {
        expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","x":\#(String(repeating: "[", count: 10_000))}"#) }
        expectJWTError(.invalidKey) { try JWKSet(json: #"{"keys":\#(String(repeating: "[", count: 10_000))}"#) }
    }
}
