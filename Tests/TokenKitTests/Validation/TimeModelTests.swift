import Foundation
import Testing
import TokenKit

/// TokenKit's one time model as verification sees it: `Duration` spans (leeway, max age),
/// `Date` instants from one ``TokenClock``, and the one conversion between them and the
/// seconds NumericDates count in.
@Suite("Time model: Duration leeway and max age, TokenClock instants")
struct TimeModelTests {
    static let t: Double = 1_700_000_000

    static func num(_ v: Double) -> JSONValue { .number(JSONNumber(v)!) }

    static func verify(_ token: String, _ options: ValidationOptions) throws -> VerifiedJWT {
        try JWTVerifier(key: try TokenForge.key(), options: options).verify(token)
    }

    @Test("a negative Duration leeway becomes zero, in init and in the setter, and tolerates nothing")
    func negativeLeewayIsZero() throws {
        let token = try TokenForge.signed([("exp", Self.num(Self.t))])
        var options = ValidationOptions(leeway: .seconds(-30), clock: FixedClock(unixTime: Self.t - 1))
        #expect(options.leeway == .zero)
        _ = try Self.verify(token, options)
        options.clock = FixedClock(unixTime: Self.t)
        expectJWTError(.expired) { try Self.verify(token, options) }

        options.leeway = .seconds(5)
        _ = try Self.verify(token, options)
        options.leeway = .milliseconds(-1)
        #expect(options.leeway == .zero)
        expectJWTError(.expired) { try Self.verify(token, options) }
    }

    @Test("a sub-second leeway counts: 500 ms accepts a token expired 0.4 s ago and refuses one expired 0.6 s ago")
    func subSecondLeeway() throws {
        let clock = FixedClock(unixTime: Self.t)
        let options = ValidationOptions(leeway: .milliseconds(500), clock: clock)
        #expect(try Self.verify(try TokenForge.signed([("exp", Self.num(Self.t - 0.4))]), options).claims["exp"] != nil)
        let error = expectJWTError(.expired) { try Self.verify(try TokenForge.signed([("exp", Self.num(Self.t - 0.6))]), options) }
        #expect(error?.reason.contains("leeway 0.5s") == true, "\(error?.reason ?? "")")

        // The same span set afterwards behaves the same.
        var later = ValidationOptions(clock: clock)
        later.leeway = .milliseconds(500)
        #expect(try Self.verify(try TokenForge.signed([("exp", Self.num(Self.t - 0.4))]), later).claims["exp"] != nil)
        expectJWTError(.expired) { try Self.verify(try TokenForge.signed([("exp", Self.num(Self.t - 0.6))]), later) }
    }

    @Test("a ManualClock moved with advance(by:) and set(_:) moves every decision of the same options")
    func manualClockMovesDecisions() throws {
        let start = Date(timeIntervalSince1970: Self.t)
        let clock = ManualClock(start)
        let options = ValidationOptions(clock: clock)
        let token = try TokenForge.signed([("nbf", Self.num(Self.t)), ("exp", Self.num(Self.t + 10))])

        _ = try Self.verify(token, options)
        clock.advance(by: .milliseconds(9_500))
        _ = try Self.verify(token, options)
        clock.advance(by: .milliseconds(500))
        expectJWTError(.expired) { try Self.verify(token, options) }
        clock.set(start)
        _ = try Self.verify(token, options)
        clock.advance(by: .milliseconds(-1))
        expectJWTError(.notYetValid) { try Self.verify(token, options) }
        clock.set(Date(timeIntervalSince1970: Self.t + 3600))
        expectJWTError(.expired) { try Self.verify(token, options) }
        #expect(clock.now == Date(timeIntervalSince1970: Self.t + 3600))
    }

    @Test("maxAge is a Duration: 1.5 s accepts a token issued 1.5 s ago and refuses one issued 1.6 s ago")
    func maxAgeDuration() throws {
        let token = try TokenForge.signed([("iat", Self.num(Self.t)), ("exp", Self.num(Self.t + 3600))])
        var options = ValidationOptions(maxAge: .milliseconds(1_500), clock: FixedClock(unixTime: Self.t + 1.5))
        #expect(options.maxAge == .milliseconds(1_500))
        _ = try Self.verify(token, options)
        options.clock = FixedClock(unixTime: Self.t + 1.6)
        expectJWTError(.tooOld) { try Self.verify(token, options) }

        options.maxAge = .seconds(2)
        _ = try Self.verify(token, options)
        options.maxAge = nil
        options.clock = FixedClock(unixTime: Self.t + 3599)
        _ = try Self.verify(token, options)
    }

    @Test("verification reads the clock once per token")
    func clockReadOncePerVerify() throws {
        let clock = CountingClock(Date(timeIntervalSince1970: Self.t))
        let options = ValidationOptions(
            leeway: .seconds(1), requiredClaims: ["exp", "iat"], maxAge: .seconds(60), clock: clock)
        let token = try TokenForge.signed([("iat", Self.num(Self.t)), ("nbf", Self.num(Self.t)), ("exp", Self.num(Self.t + 60))])
        _ = try Self.verify(token, options)
        _ = try Self.verify(token, options)
        #expect(clock.reads == 2)
    }

    @Test("the one conversion: Duration to seconds keeps fractions; seconds(clamping:), wholeMilliseconds and wholeNanoseconds never trap")
    func conversion() {
        #expect(Duration.milliseconds(1_500).seconds == 1.5)
        #expect(Duration.seconds(-2).seconds == -2)
        #expect(Duration.nanoseconds(1).seconds == 1e-9)
        #expect(Duration.seconds(clamping: 0.25) == .milliseconds(250))
        #expect(Duration.seconds(clamping: .nan) == .zero)
        #expect(Duration.seconds(clamping: .infinity) == .seconds(clamping: 1e300))
        #expect(Duration.seconds(clamping: -.infinity) < .zero)
        #expect(Duration.seconds(-3).clampedToZero == .zero)
        #expect(Duration.seconds(3).clampedToZero == .seconds(3))
        #expect(Duration.milliseconds(1_500).wholeMilliseconds == 1_500)
        #expect(Duration.microseconds(1_999).wholeMilliseconds == 1)
        #expect(Duration.microseconds(-1_500).wholeMilliseconds == -1)
        #expect(Duration.seconds(Int64.max).wholeMilliseconds == .max)
        #expect(Duration.seconds(Int64.min).wholeMilliseconds == .min)
        #expect(Duration.milliseconds(1_500).wholeNanoseconds == 1_500_000_000)
        #expect(Duration.nanoseconds(7).wholeNanoseconds == 7)
        #expect((Duration.nanoseconds(-7) / 2).wholeNanoseconds == -3)
        #expect(Duration.seconds(9_223_372_036).wholeNanoseconds == 9_223_372_036_000_000_000)
        #expect(Duration.seconds(9_223_372_037).wholeNanoseconds == .max)
        #expect(Duration.seconds(Int64.min).wholeNanoseconds == .min)
    }
}

/// A clock that counts how often it is read.
private final class CountingClock: TokenClock, @unchecked Sendable {
    // @unchecked Sendable: `count` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var count = 0
    private let instant: Date

    init(_ instant: Date) { self.instant = instant }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return instant
    }

    var reads: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
