#if Hummingbird && Postgres
import Testing
@testable import TokenKitAuth

@Suite("Form URL encoding")
struct FormURLEncodingTests {
    @Test("unreserved characters stay, space becomes +, the rest is %XX of UTF-8")
    func encoding() {
        #expect(FormURLEncoding.encode("AZaz09*-._") == "AZaz09*-._")
        #expect(FormURLEncoding.encode("a b") == "a+b")
        #expect(FormURLEncoding.encode("s3cr:et&=+/~") == "s3cr%3Aet%26%3D%2B%2F%7E")
        #expect(FormURLEncoding.encode("é") == "%C3%A9")
        #expect(FormURLEncoding.encode([("a", "1 2"), ("b&", "=")]) == "a=1+2&b%26=%3D")
    }
}
#endif
