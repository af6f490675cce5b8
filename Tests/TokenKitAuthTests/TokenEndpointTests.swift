#if Hummingbird && Postgres
import Foundation
import Testing
@testable import TokenKitAuth

@Suite("Token endpoint URL policy")
struct TokenEndpointTests {
    @Test("https is accepted; http only on loopback", arguments: [
        ("https://auth.example.com/token", true),
        ("http://127.0.0.1:8080/token", true),
        ("http://127.1.2.3/token", true),
        ("http://localhost/token", true),
        ("http://[::1]:9/token", true),
        ("http://auth.example.com/token", false),
        ("http://127.0.0.1.example.com/token", false),
        ("http://128.0.0.1/token", false),
        ("ftp://auth.example.com/token", false),
        ("https://user:pw@auth.example.com/token", false),
        ("https://auth.example.com/token#frag", false),
        ("/token", false),
    ])
    func policy(url: String, accepted: Bool) throws {
        let parsed = try #require(URL(string: url))
        let result = Result { () throws(AuthError) in try TokenEndpoint.validate(parsed) }
        switch result {
        case .success: #expect(accepted)
        case .failure(let error):
            #expect(!accepted)
            #expect(error.code == .invalidConfiguration)
        }
    }

    @Test("the rejection names the reason")
    func message() {
        #expect(throws: AuthError.self) { try TokenEndpoint.validate(URL(string: "http://auth.example.com/t")!) }
        do {
            try TokenEndpoint.validate(URL(string: "http://auth.example.com/t")!)
        } catch {
            #expect(error.message.contains("https"))
        }
    }
}
#endif
