import Foundation
internal import TokenKitPrimitives

/// Foundation coding for typed claims: dates as NumericDates (seconds since 1970).
enum ClaimsCoding {
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return Array(try encoder.encode(value))
    }

    static func data(_ bytes: [UInt8]) -> Data { Data(bytes) }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        case DecodingError.dataCorrupted(let context):
            "bad value at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        case EncodingError.invalidValue(_, let context):
            "invalid value at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        default: "invalid JSON"
        }
    }
}

/// A JWT `aud` claim for Codable payloads: decodes a string or an array of strings;
/// encodes one audience as a string and several as an array.
///
/// Values compare byte for byte: ``contains(_:)`` and `==` never match a canonically
/// equivalent but different string (`"\u{212A}api"`, with KELVIN SIGN, is not `"Kapi"`).
public struct Audience: Codable, Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
    /// The audiences, in order.
    public var values: [String]

    /// Several audiences.
    public init(_ values: [String]) { self.values = values }
    public init(stringLiteral value: String) { values = [value] }
    public init(arrayLiteral elements: String...) { values = elements }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            values = [one]
        } else {
            values = try container.decode([String].self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if values.count == 1 { try container.encode(values[0]) } else { try container.encode(values) }
    }

    /// Whether one of the values has exactly the UTF-8 bytes of `audience`.
    public func contains(_ audience: String) -> Bool { values.containsByteIdentical(audience) }

    /// Equal when both have the same values in the same order, compared by their bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.values.count == rhs.values.count && zip(lhs.values, rhs.values).allSatisfy { $0.isByteIdentical(to: $1) }
    }

    /// Hashes the values' bytes (consistent with ``==(_:_:)``).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values.map { ExactKey($0) })
    }
}

/// The registered claims of RFC 7519 §4.1, for embedding in your own Codable payload or
/// using on their own. Dates encode as NumericDates. `==` compares the string claims
/// (`iss`, `sub`, `jti`, `aud`) by their bytes, never by Unicode canonical equivalence.
public struct RegisteredClaims: Codable, Sendable, Hashable {
    /// Issuer.
    public var iss: String?
    /// Subject.
    public var sub: String?
    /// Audience(s).
    public var aud: Audience?
    /// Expiration time.
    public var exp: Date?
    /// Not before.
    public var nbf: Date?
    /// Issued at.
    public var iat: Date?
    /// JWT ID.
    public var jti: String?

    /// Registered claims; every one is optional.
    public init(iss: String? = nil, sub: String? = nil, aud: Audience? = nil, exp: Date? = nil,
                nbf: Date? = nil, iat: Date? = nil, jti: String? = nil) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
        self.jti = jti
    }

    /// Equal when every claim is; strings by their bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        func same(_ a: String?, _ b: String?) -> Bool { a.map { ExactKey($0) } == b.map { ExactKey($0) } }
        return same(lhs.iss, rhs.iss) && same(lhs.sub, rhs.sub) && same(lhs.jti, rhs.jti) && lhs.aud == rhs.aud
            && lhs.exp == rhs.exp && lhs.nbf == rhs.nbf && lhs.iat == rhs.iat
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        for claim in [iss, sub, jti] { hasher.combine(claim.map { ExactKey($0) }) }
        hasher.combine(aud)
        hasher.combine(exp)
        hasher.combine(nbf)
        hasher.combine(iat)
    }
}
