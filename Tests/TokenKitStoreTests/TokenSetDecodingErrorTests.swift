import Foundation
import Testing
import TokenKitStore

/// `invalid-token-set` and `wrong-kind`: each decoding failure is named, without the tokens.
@Suite("Token set decoding errors")
struct TokenSetDecodingErrorTests {
    @Test("each malformed token set JSON gets its own reason, and no token value in it",
          arguments: [
            (#"{"refresh_token":"SECRET-RT"}"#, #"invalid token set: missing "access_token""#),
            (#"{"access_token":42}"#, #"invalid token set: wrong type for "access_token""#),
            (#"{"access_token":"SECRET-AT","expires_at":"tomorrow"}"#, #"invalid token set: wrong type for "expires_at""#),
            (#"{"access_token":"SECRET-AT","metadata":{"k":1}}"#, #"invalid token set: wrong type for "metadata.k""#),
            (#"["SECRET-AT"]"#, #"invalid token set: wrong type for """#),
            ("SECRET-AT", "invalid token set: not a JSON object"),
            ("", "invalid token set: not a JSON object"),
          ])
    func malformed(json: String, message: String) {
        let error = #expect(throws: TokenStoreError.self) { try TokenSet(jsonBytes: Array(json.utf8)) }
        #expect(error?.code == .invalidTokenSet)
        #expect(error?.message == message)
        #expect(error?.message.contains("SECRET") == false)
    }

    @Test("a plain secret is not a token set: wrong-kind, naming both kinds")
    func wrongKind() throws {
        let plain = Credential(secret: Array("SECRET-BYTES".utf8))
        let error = #expect(throws: TokenStoreError.self) { try plain.tokenSet() }
        #expect(error?.code == .wrongKind)
        #expect(error?.message == "the credential holds a plain secret, not a token set")
    }

    @Test("a token-set credential whose bytes are not a token set is invalid-token-set, not wrong-kind")
    func tokenSetKindWithBadBytes() throws {
        let damaged = Credential(kind: .tokenSet, secret: Array("{}".utf8), createdAt: nil, updatedAt: nil)
        let error = #expect(throws: TokenStoreError.self) { try damaged.tokenSet() }
        #expect(error?.code == .invalidTokenSet)
        #expect(error?.message == #"invalid token set: missing "access_token""#)
    }
}
