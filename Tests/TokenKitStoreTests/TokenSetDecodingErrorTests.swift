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
            (#"{"access_token":"SECRET-AT","expires_at":1e400}"#, #"invalid token set: bad value for "expires_at""#),
            (#"{"access_token":"SECRET-AT","metadata":["SECRET"]}"#, #"invalid token set: wrong type for "metadata""#),
          ])
    func malformed(json: String, message: String) {
        let error = #expect(throws: TokenStoreError.self) { try TokenSet(jsonBytes: Array(json.utf8)) }
        #expect(error?.code == .invalidTokenSet)
        #expect(error?.message == message)
        #expect(error?.message.contains("SECRET") == false)
    }

    @Test("text that is not strict JSON is refused by the one JSON reader, naming its reason and never the text",
          arguments: [
            "SECRET-AT", "",
            // Two access tokens: parsers that keep the first or the last would disagree.
            #"{"access_token":"SECRET-A","access_token":"SECRET-B"}"#,
            "{\"access_token\":\"SECRET-\u{1}\"}",  // a raw control character in a string
            #"{"access_token":"SECRET-AT",}"#,  // a trailing comma
          ])
    func notStrictJSON(text: String) {
        let error = #expect(throws: TokenStoreError.self) { try TokenSet(jsonBytes: Array(text.utf8)) }
        #expect(error?.code == .invalidTokenSet)
        #expect(error?.message.hasPrefix("invalid token set: not a JSON object (invalid JSON: ") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("SECRET") == false)
    }

    @Test("the stored format is unchanged: what TokenSet writes reads back equal, byte for byte on a second write")
    func roundTrip() throws {
        let full = TokenSet(
            accessToken: "AT", refreshToken: "RT", idToken: "a.b.c", tokenType: "DPoP",
            expiresAt: Date(timeIntervalSince1970: 1_900_000_000), scope: "read write",
            metadata: ["login.subject": "1", "path": "/x/y"], dpopKey: #"{"kty":"EC"}"#)
        for tokenSet in [full, TokenSet(accessToken: "only"), TokenSet(accessToken: "f", expiresAt: Date(timeIntervalSince1970: 1_900_000_000.5))] {
            let bytes = tokenSet.jsonBytes()
            let read = try TokenSet(jsonBytes: bytes)
            #expect(read == tokenSet)
            #expect(read.jsonBytes() == bytes)
        }
        // A document written by the previous release (Foundation's encoder, sorted keys).
        let stored = #"{"access_token":"AT","expires_at":1900000000,"metadata":{"login.client_id":"app"},"refresh_token":"RT","token_type":"Bearer"}"#
        let read = try TokenSet(jsonBytes: Array(stored.utf8))
        #expect(read.jsonBytes() == Array(stored.utf8))
    }

    @Test("describing a token set whose expiry no Int64 holds does not trap")
    func describingAnAbsurdExpiry() {
        for seconds in [Double.infinity, -Double.infinity, .nan, 1e300] {
            let tokenSet = TokenSet(accessToken: "SECRET-AT", expiresAt: Date(timeIntervalSince1970: seconds))
            #expect(tokenSet.description.contains("expiresAt: out of range"))
            #expect(!tokenSet.description.contains("SECRET"))
        }
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
