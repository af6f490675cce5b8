#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth

/// The fields of a token answer as the one gate reads them for a refresh (merging with the
/// stored set, `expires_in` forms, OAuth errors); the gate's rules for every grant are in
/// TokenResponseAdmissionTests.
@Suite("Token endpoint responses (RFC 6749 §5.1, §5.2)")
struct TokenEndpointResponseTests {
    let previous = TokenSet(
        accessToken: "old-access", refreshToken: "old-refresh", idToken: "old-id", expiresAt: nil,
        scope: "read", metadata: ["role": "parent"])
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func parse(_ status: Int, _ body: String, maxBytes: Int = 65536) async throws(AuthError) -> TokenSet {
        let expectation = TokenResponseAdmission.Expectation(
            grant: .refreshToken, dpop: false,
            idToken: IDTokenExpectation(issuer: nil, clientID: "app", nonce: nil, subject: nil, required: false), maxBytes: maxBytes)
        return try await TokenResponseAdmission.admit(
            HTTPTransportResponse(status: status, body: Array(body.utf8)), expectation, previous: previous, now: now,
            transport: ScriptedTransport([]))
    }

    func failure(_ status: Int, _ body: String, maxBytes: Int = 65536) async -> AuthError? {
        do { _ = try await parse(status, body, maxBytes: maxBytes); return nil } catch { return error }
    }

    @Test("expires_in becomes expires_at from the injected time; missing fields keep the old values")
    func success() async throws {
        let set = try await parse(200, #"{"access_token":"new","token_type":"BeArEr","expires_in":3600}"#)
        #expect(set.accessToken == "new")
        #expect(set.expiresAt == now.addingTimeInterval(3600))
        #expect(set.refreshToken == "old-refresh")
        #expect(set.scope == "read")
        #expect(set.idToken == "old-id")
        #expect(set.metadata == ["role": "parent"])
        #expect(set.tokenType == "Bearer")
    }

    @Test("a rotated refresh token and new scope replace the old ones")
    func rotation() async throws {
        let set = try await parse(200, #"{"access_token":"new","token_type":"bearer","refresh_token":"r2","scope":"write","expires_in":"60"}"#)
        #expect(set.refreshToken == "r2")
        #expect(set.scope == "write")
        #expect(set.expiresAt == now.addingTimeInterval(60))
    }

    @Test("null optional members count as absent (a null expires_in gives the 5-minute lifetime)")
    func nulls() async throws {
        let set = try await parse(200, #"{"access_token":"new","token_type":"Bearer","refresh_token":null,"expires_in":null}"#)
        #expect(set.refreshToken == "old-refresh")
        #expect(set.expiresAt == now.addingTimeInterval(300))
    }

    @Test("invalid_grant means sign-in required; other OAuth errors are distinct")
    func errors() async {
        let grant = await failure(400, #"{"error":"invalid_grant","error_description":"expired"}"#)
        #expect(grant?.code == .signInRequired)
        #expect(grant?.oauthError == "invalid_grant")
        #expect(grant?.message.contains("expired") == true)
        let client = await failure(401, #"{"error":"invalid_client"}"#)
        #expect(client?.code == .refreshRejected)
        #expect(client?.oauthError == "invalid_client")
        #expect(client?.message.contains("invalid_client") == true)
        #expect(await failure(503, "<html>down</html>")?.message.contains("503") == true)
        #expect(await failure(503, "<html>down</html>")?.code == .invalidResponse)
    }

    @Test("malformed answers are refused with the reason", arguments: [
        ("<html>", "not a JSON object"),
        ("[1,2]", "not a JSON object"),
        (#"{"token_type":"Bearer"}"#, "missing \"access_token\""),
        (#"{"access_token":"a"}"#, "missing \"token_type\""),
        (#"{"access_token":"a","token_type":"mac"}"#, "is not Bearer"),
        (#"{"access_token":"","token_type":"Bearer"}"#, "empty"),
        (#"{"access_token":1,"token_type":"Bearer"}"#, "access_token"),
        (#"{"access_token":"a","token_type":"Bearer","expires_in":true}"#, "expires_in"),
        (#"{"access_token":"a","token_type":"Bearer","expires_in":-5}"#, "expires_in"),
        (#"{"access_token":"a","token_type":"Bearer","expires_in":"12x"}"#, "expires_in"),
        (#"{"access_token":"a","access_token":"b","token_type":"Bearer"}"#, "duplicate member name"),
    ])
    func malformed(body: String, reason: String) async {
        let error = await failure(200, body)
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "no error")")
    }

    @Test("oversized bodies are refused before parsing")
    func oversized() async {
        let error = await failure(200, #"{"access_token":"a","token_type":"Bearer"}"#, maxBytes: 10)
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("larger than 10 bytes") == true)
    }

    @Test("server text in errors is reduced to printable ASCII and bounded")
    func sanitized() async {
        let long = String(repeating: "x", count: 500)
        let error = await failure(400, #"{"error":"bad\u0007one","error_description":"\#(long)"}"#)
        #expect(error?.message.contains("\u{7}") == false)
        #expect((error?.message.count ?? 0) < 400)
    }
}
#endif
