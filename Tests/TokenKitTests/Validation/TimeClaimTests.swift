import Testing
import TokenKit

/// exp / nbf / iat / maxAge semantics (RFC 7519 §4.1.4–4.1.6): expired when
/// now >= exp + leeway, not yet valid when now + leeway < nbf; non-numeric values refused.
@Suite("Claims: exp, nbf, iat, maxAge")
struct TimeClaimTests {
    static let t: Double = 1_700_000_000

    static func verify(_ members: [(String, JSONValue)], now: Double, leeway: Duration = .zero, required: IdentifierSet = ["exp"],
                       maxAge: Duration? = nil, rejectFutureIat: Bool = true) throws -> VerifiedJWT {
        let options = ValidationOptions(leeway: leeway, requiredClaims: required, maxAge: maxAge,
                                        rejectIssuedInFuture: rejectFutureIat, clock: FixedClock(unixTime: now))
        return try JWTVerifier(key: try TokenForge.key(), options: options).verify(try TokenForge.signed(members))
    }

    static func num(_ v: Double) -> JSONValue { .number(JSONNumber(v)!) }

    @Test("exp: one second before is valid, exactly at exp is expired, after is expired")
    func expBoundary() throws {
        #expect(try Self.verify([("exp", Self.num(Self.t))], now: Self.t - 1).claims["exp"] != nil)
        let error = expectJWTError(.expired) { try Self.verify([("exp", Self.num(Self.t))], now: Self.t) }
        #expect(error?.reason.contains("2023-11-14T22:13:20Z") == true, "\(error?.reason ?? "")")
        expectJWTError(.expired) { try Self.verify([("exp", Self.num(Self.t))], now: Self.t + 1) }
    }

    @Test("exp with a fraction: just before is valid, just at it is expired")
    func expFraction() throws {
        #expect(try Self.verify([("exp", Self.num(Self.t + 0.5))], now: Self.t + 0.25).claims["exp"] != nil)
        expectJWTError(.expired) { try Self.verify([("exp", Self.num(Self.t + 0.5))], now: Self.t + 0.5) }
    }

    @Test("leeway extends exp: valid until now == exp + leeway, expired from then on")
    func expLeeway() throws {
        #expect(try Self.verify([("exp", Self.num(Self.t))], now: Self.t + 59, leeway: .seconds(60)).claims["exp"] != nil)
        expectJWTError(.expired) { try Self.verify([("exp", Self.num(Self.t))], now: Self.t + 60, leeway: .seconds(60)) }
    }

    @Test("exp is required by default; a token without it is refused as missing-claim")
    func expRequired() throws {
        expectJWTError(.missingClaim) { try Self.verify([("sub", .string("a"))], now: Self.t) }
        #expect(try Self.verify([("sub", .string("a"))], now: Self.t, required: []).claims["sub"] != nil)
    }

    @Test("non-numeric time claims are refused even when not required", arguments: ["exp", "nbf", "iat"])
    func nonNumeric(name: String) throws {
        for bad: JSONValue in [.string("\(Int(Self.t) + 100)"), .null, .bool(true), .array([Self.num(Self.t + 100)]), .object(JSONObject())] {
            let members: [(String, JSONValue)] = name == "exp" ? [("exp", bad)] : [("exp", Self.num(Self.t + 100)), (name, bad)]
            let error = expectJWTError(.invalidClaim) { try Self.verify(members, now: Self.t, required: []) }
            #expect(error?.reason.contains(name) == true)
        }
    }

    @Test("a time claim too large to be a date is refused", arguments: ["1e300", "1e400", "-1e20"])
    func outOfRange(literal: String) throws {
        let token = TokenForge.token(payload: #"{"exp":\#(literal)}"#)
        let options = ValidationOptions(clock: FixedClock(unixTime: Self.t))
        expectJWTError(.invalidClaim) { try JWTVerifier(key: try TokenForge.key(), options: options).verify(token) }
    }

    @Test("nbf: valid exactly at nbf, refused one second before, leeway lets it in early")
    func nbf() throws {
        let members: [(String, JSONValue)] = [("exp", Self.num(Self.t + 1000)), ("nbf", Self.num(Self.t))]
        #expect(try Self.verify(members, now: Self.t).claims["nbf"] != nil)
        expectJWTError(.notYetValid) { try Self.verify(members, now: Self.t - 1) }
        #expect(try Self.verify(members, now: Self.t - 30, leeway: .seconds(30)).claims["nbf"] != nil)
        expectJWTError(.notYetValid) { try Self.verify(members, now: Self.t - 31, leeway: .seconds(30)) }
    }

    @Test("iat in the future is refused (with leeway honoured) unless that check is turned off")
    func iatFuture() throws {
        let members: [(String, JSONValue)] = [("exp", Self.num(Self.t + 1000)), ("iat", Self.num(Self.t + 10))]
        expectJWTError(.issuedInFuture) { try Self.verify(members, now: Self.t) }
        #expect(try Self.verify(members, now: Self.t, leeway: .seconds(10)).claims["iat"] != nil)
        #expect(try Self.verify(members, now: Self.t, rejectFutureIat: false).claims["iat"] != nil)
        #expect(try Self.verify(members, now: Self.t + 10).claims["iat"] != nil)
    }

    @Test("maxAge: refuses older tokens, accepts at the boundary, and needs iat")
    func maxAge() throws {
        let members: [(String, JSONValue)] = [("exp", Self.num(Self.t + 10_000)), ("iat", Self.num(Self.t))]
        #expect(try Self.verify(members, now: Self.t + 300, maxAge: .seconds(300)).claims["iat"] != nil)
        expectJWTError(.tooOld) { try Self.verify(members, now: Self.t + 301, maxAge: .seconds(300)) }
        #expect(try Self.verify(members, now: Self.t + 310, leeway: .seconds(10), maxAge: .seconds(300)).claims["iat"] != nil)
        expectJWTError(.missingClaim) { try Self.verify([("exp", Self.num(Self.t + 10_000))], now: Self.t, maxAge: .seconds(300)) }
    }

    @Test("a negative leeway is treated as zero (a Duration cannot be NaN or infinite)")
    func leewayClamped() throws {
        #expect(ValidationOptions(leeway: .seconds(-100)).leeway == .zero)
        #expect(ValidationOptions(leeway: .seconds(Int64.min)).leeway == .zero)
        #expect(ValidationOptions(leeway: .nanoseconds(-1)).leeway == .zero)
        expectJWTError(.expired) { try Self.verify([("exp", Self.num(Self.t))], now: Self.t, leeway: .seconds(-100)) }
    }
}
