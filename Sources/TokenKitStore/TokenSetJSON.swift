import Foundation
internal import TokenKit

/// Reads a ``TokenSet`` from its stored JSON with the JWT core's strict reader
/// (`JSONValue(parsingBytes:)`): RFC 8259, valid UTF-8, no duplicate member names, bounded
/// nesting. One grammar for everything that comes from outside — a token set typed into
/// `tokenkit store put --token-set`, or read back from a store — so two parsers can never
/// disagree about which `access_token` a document holds.
///
/// The members and their types are those ``TokenSet/encode(to:)`` writes (and the format
/// stays byte for byte what it was): `access_token` (required) and `refresh_token`,
/// `id_token`, `token_type`, `scope`, `dpop_jwk` as strings; `expires_at` as a number of Unix
/// seconds (finite, |value| < 10^11); `metadata` as an object of strings. A `null` counts as
/// absent, as it did; unknown members are ignored (a newer TokenKit may add some).
///
/// Every failure is ``TokenStoreError/Code/invalidTokenSet`` naming the member (and for a
/// syntax error, the reader's reason and offset), never a value.
enum TokenSetJSON {
    /// The deepest nesting a token set has (the object and its `metadata`), with a margin.
    static let maxDepth = 4

    static func decode(_ bytes: [UInt8]) throws(TokenStoreError) -> TokenSet {
        let value: JSONValue
        do { value = try JSONValue(parsingBytes: bytes, maxDepth: maxDepth) } catch {
            throw .invalidTokenSet("not a JSON object (\(error.reason))")
        }
        guard let object = value.objectValue else { throw .invalidTokenSet("wrong type for \"\"") }
        guard let accessToken = try string("access_token", in: object) else {
            throw .invalidTokenSet("missing \"access_token\"")
        }
        return TokenSet(
            accessToken: accessToken,
            refreshToken: try string("refresh_token", in: object),
            idToken: try string("id_token", in: object),
            tokenType: try string("token_type", in: object),
            expiresAt: try expiry(in: object),
            scope: try string("scope", in: object),
            metadata: try metadata(in: object),
            dpopKey: try string("dpop_jwk", in: object))
    }

    /// A string member; `nil` when absent or `null`.
    private static func string(_ name: String, in object: JSONObject) throws(TokenStoreError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case _?: throw .invalidTokenSet("wrong type for \"\(name)\"")
        }
    }

    /// `expires_at`: Unix seconds, finite and below 10^11 in magnitude.
    private static func expiry(in object: JSONObject) throws(TokenStoreError) -> Date? {
        switch object["expires_at"] {
        case nil, .null?:
            return nil
        case .number(let number)?:
            let seconds = number.doubleValue
            guard seconds.isFinite, abs(seconds) < 1e11 else { throw .invalidTokenSet("bad value for \"expires_at\"") }
            return Date(timeIntervalSince1970: seconds)
        case _?:
            throw .invalidTokenSet("wrong type for \"expires_at\"")
        }
    }

    /// `metadata`: an object whose members are all strings.
    private static func metadata(in object: JSONObject) throws(TokenStoreError) -> [String: String] {
        switch object["metadata"] {
        case nil, .null?:
            return [:]
        case .object(let members)?:
            var result: [String: String] = [:]
            for (name, value) in members {
                guard case .string(let text) = value else { throw .invalidTokenSet("wrong type for \"metadata.\(name.prefix(40))\"") }
                result[name] = text
            }
            return result
        case _?:
            throw .invalidTokenSet("wrong type for \"metadata\"")
        }
    }
}
