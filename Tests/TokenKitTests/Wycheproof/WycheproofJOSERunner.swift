import TokenKit
import TokenKitTestSupport

/// Runs one Wycheproof JOSE case (json_web_signature / json_web_key) through the library:
/// the group's key (JWK or JWKS) is loaded by TokenKit, then `JWTVerifier.verifyJWS`.
/// A key that TokenKit refuses to load counts as the token being refused.
enum WycheproofJOSERunner {
    static func verify(_ test: WycheproofJOSE.Case) -> Result<[UInt8], JWTError> {
        do {
            let verifier: JWTVerifier
            if test.isKeySet {
                verifier = JWTVerifier(keys: try JWKSet(json: test.keyJSON))
            } else {
                verifier = JWTVerifier(key: try JWTKey(jwk: test.keyJSON))
            }
            return .success(try verifier.verifyJWS(test.jws).payload)
        } catch {
            return .failure(error)
        }
    }

    /// Vectors Wycheproof marks valid that TokenKit refuses ON PURPOSE, with the reason and
    /// the error code the refusal must carry. Everything not listed must match exactly.
    static let refusedOnPurpose: [String: [Int: (code: JWTError.Code, why: String)]] = [
        "json_web_signature_test.json": [
            347: (.invalidKey, "RFC 7520 §4.3 key carries alg \"ES521\" (a typo for ES512 in the RFC): an unknown JWK alg makes the key unusable rather than guessed"),
            351: (.invalidKey, "same ES521 typo, with key_ops"),
            346: (.algorithmNotAllowed, "RFC 7520 §4.2 token is PS384 but the group's JWK says alg PS256: a JWK's own alg binds the key"),
            350: (.algorithmNotAllowed, "same PS384 token against the PS256-bound JWK, with key_ops"),
            372: (.malformed, "a '?' inside the header part: characters outside the base64url alphabet are never skipped"),
            373: (.malformed, "a '?' inside the payload part: characters outside the base64url alphabet are never skipped"),
        ],
        "json_web_key_test.json": [:],
    ]

    /// Vectors marked invalid that are byte-for-byte the same test as a valid vector of the
    /// same group (the padding they are named for is absent from the file): accepting the
    /// valid one means accepting these. tcId → the valid tcId it duplicates.
    static let invalidDuplicatesOfValid: [String: [Int: Int]] = [
        "json_web_signature_test.json": [367: 357, 370: 357],
        "json_web_key_test.json": [:],
    ]
}
