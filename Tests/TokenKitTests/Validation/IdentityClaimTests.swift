import Foundation
import Testing
import TokenKit

/// iss, aud, sub, typ, required claims, the custom check and typed decoding.
@Suite("Claims: iss, aud, sub, typ, required, custom")
struct IdentityClaimTests {
    static let exp: JSONValue = .number(JSONNumber(Int64(4_000_000_000)))

    static func verify(_ members: [(String, JSONValue)], header: JWTHeaderFields = JWTHeaderFields(),
                       _ configure: (inout ValidationOptions) -> Void) throws -> VerifiedJWT {
        var options = ValidationOptions(clock: FixedClock(unixTime: TokenForge.now))
        configure(&options)
        let token = try TokenForge.signed([("exp", exp)] + members, header: header)
        return try JWTVerifier(key: try TokenForge.key(), options: options).verify(token)
    }

    @Test("iss must be one of the accepted issuers, exactly")
    func issuer() throws {
        #expect(try Self.verify([("iss", .string("https://a.example"))]) { $0.issuers = ["https://a.example", "b"] }.claims["iss"] != nil)
        expectJWTError(.issuerMismatch) { try Self.verify([("iss", .string("https://a.example/"))]) { $0.issuers = ["https://a.example"] } }
        expectJWTError(.issuerMismatch) { try Self.verify([]) { $0.issuers = ["https://a.example"] } }
        expectJWTError(.invalidClaim) { try Self.verify([("iss", .number(JSONNumber(Int64(1))))]) { $0.issuers = ["1"] } }
    }

    @Test("aud as a string or an array: any accepted audience matches")
    func audience() throws {
        #expect(try Self.verify([("aud", .string("api"))]) { $0.audiences = ["api"] }.claims["aud"] != nil)
        #expect(try Self.verify([("aud", .array([.string("web"), .string("api")]))]) { $0.audiences = ["api"] }.claims["aud"] != nil)
        expectJWTError(.audienceMismatch) { try Self.verify([("aud", .string("apix"))]) { $0.audiences = ["api"] } }
        expectJWTError(.audienceMismatch) { try Self.verify([("aud", .array([.string("web")]))]) { $0.audiences = ["api"] } }
        expectJWTError(.audienceMismatch) { try Self.verify([]) { $0.audiences = ["api"] } }
    }

    @Test("a malformed aud is refused whether or not audiences are checked")
    func malformedAudience() throws {
        for bad: JSONValue in [.number(JSONNumber(Int64(1))), .array([.string("api"), .number(JSONNumber(Int64(1)))]), .array([]), .object(JSONObject()), .null] {
            expectJWTError(.invalidClaim) { try Self.verify([("aud", bad)]) { $0.audiences = ["api"] } }
            expectJWTError(.invalidClaim) { try Self.verify([("aud", bad)]) { _ in } }
        }
    }

    @Test("sub must equal the expected subject")
    func subject() throws {
        #expect(try Self.verify([("sub", .string("alice"))]) { $0.subject = "alice" }.claims["sub"] != nil)
        expectJWTError(.subjectMismatch) { try Self.verify([("sub", .string("Alice"))]) { $0.subject = "alice" } }
        expectJWTError(.subjectMismatch) { try Self.verify([]) { $0.subject = "alice" } }
    }

    @Test("typ is compared case-insensitively with an optional application/ prefix")
    func type() throws {
        for typ in ["JWT", "jwt", "application/jwt", "APPLICATION/JWT"] {
            #expect(try Self.verify([], header: JWTHeaderFields(type: typ)) { $0.type = "JWT" }.header.type == typ)
        }
        expectJWTError(.typeMismatch) { try Self.verify([], header: JWTHeaderFields(type: "at+jwt")) { $0.type = "JWT" } }
        expectJWTError(.typeMismatch) { try Self.verify([], header: JWTHeaderFields(type: nil)) { $0.type = "JWT" } }
        #expect(try Self.verify([], header: JWTHeaderFields(type: "at+jwt")) { $0.type = "application/at+jwt" }.header.type == "at+jwt")
    }

    @Test("every required claim must be present, and the missing one is named")
    func required() throws {
        #expect(try Self.verify([("jti", .string("1")), ("sub", .string("a"))]) { $0.requiredClaims = ["exp", "jti", "sub"] }.claims["jti"] != nil)
        let error = expectJWTError(.missingClaim) { try Self.verify([("jti", .string("1"))]) { $0.requiredClaims = ["exp", "jti", "sub"] } }
        #expect(error?.reason.contains("\"sub\"") == true)
    }

    @Test("the custom check runs last and its error is passed through")
    func customCheck() throws {
        let check: @Sendable (JWTHeader, JWTClaims) throws(JWTError) -> Void = { (_, claims) throws(JWTError) in
            guard claims["scope"] == .string("admin") else {
                throw JWTError(code: .customCheckFailed, reason: "scope admin required")
            }
        }
        #expect(try Self.verify([("scope", .string("admin"))]) { $0.customCheck = check }.claims["scope"] != nil)
        let error = expectJWTError(.customCheckFailed) { try Self.verify([("scope", .string("read"))]) { $0.customCheck = check } }
        #expect(error?.reason == "scope admin required")
        // An earlier failure wins: the custom check is not reached when iss is refused.
        expectJWTError(.issuerMismatch) { try Self.verify([("scope", .string("read"))]) { $0.customCheck = check; $0.issuers = ["x"] } }
    }

    struct Claims: Codable, Equatable {
        let sub: String
        let exp: Date
        let admin: Bool?
    }

    @Test("verify(as:) decodes the payload after every check passed, dates as seconds since 1970")
    func typedDecoding() throws {
        let token = try JWTSigner(key: try TokenForge.key()).sign(Claims(sub: "alice", exp: Date(timeIntervalSince1970: 4_000_000_000), admin: true))
        let verifier = JWTVerifier(key: try TokenForge.key(), options: ValidationOptions(clock: FixedClock(unixTime: TokenForge.now)))
        #expect(try verifier.verify(token, as: Claims.self) == Claims(sub: "alice", exp: Date(timeIntervalSince1970: 4_000_000_000), admin: true))
        struct Wrong: Decodable { let sub: Int }
        expectJWTError(.claimsCoding) { try verifier.verify(token, as: Wrong.self) }
        let expired = JWTVerifier(key: try TokenForge.key(), options: ValidationOptions(clock: FixedClock(unixTime: 4_000_000_000)))
        expectJWTError(.expired) { try expired.verify(token, as: Claims.self) }
    }
}
