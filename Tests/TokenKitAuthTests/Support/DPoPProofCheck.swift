#if Hummingbird && Postgres
import Foundation
import TokenKit
import TokenKitCrypto

/// The test authorization server's check of a DPoP proof (RFC 9449 §4.3), strict: `typ`
/// `dpop+jwt`, a public `jwk` in the header that verifies the signature, `htm` and `htu`
/// exactly, `iat` within 60 s of now, `ath` on (and only on) requests with an access token,
/// and the server's nonce when it demands one. Replay (`jti` seen before) is the caller's to
/// check: the server keeps one set of seen `jti`s for proofs and client assertions.
enum DPoPProofCheck {
    /// Why a proof was refused: the server's nonce was missing or stale, or anything else.
    enum Failure: Error {
        case nonce
        case invalid(String)
    }

    /// The thumbprint of the proof's key and the proof's `jti`.
    struct Checked {
        let thumbprint: String
        let jti: String
    }

    /// Checks `proof` for a request of `method` to `url`; `nonce` is the one demanded, if any.
    static func verify(_ proof: String?, method: String, url: String, accessToken: String?, nonce: String?, now: Date) -> Result<Checked, Failure> {
        guard let proof else { return .failure(.invalid("no DPoP proof")) }
        do {
            let unverified = try UnverifiedJWT(parsing: proof)
            guard unverified.header.type == "dpop+jwt" else { return .failure(.invalid("typ")) }
            guard let jwk = unverified.header.raw["jwk"]?.objectValue, jwk["d"] == nil else { return .failure(.invalid("jwk header")) }
            let key = try JWTKey(jwk: jwk)
            guard key.keyType != "oct", !key.canSign else { return .failure(.invalid("jwk is not a public key")) }
            let verifier = JWTVerifier(key: key, options: ValidationOptions(
                requiredClaims: ["jti", "htm", "htu", "iat"], type: "dpop+jwt", clock: FixedClock(now)))
            let claims = try verifier.verify(proof).claims
            guard try claims.string("htm") == method else { return .failure(.invalid("htm")) }
            guard try claims.string("htu") == url else { return .failure(.invalid("htu \(String(describing: try? claims.string("htu"))) != \(url)")) }
            guard let iat = try claims.issuedAt(), abs(iat - now.timeIntervalSince1970) <= 60 else { return .failure(.invalid("iat")) }
            if let accessToken {
                let expected = Base64URL.encode(try SHA256Digest.hash(Array(accessToken.utf8)))
                guard try claims.string("ath") == expected else { return .failure(.invalid("ath")) }
            } else if claims["ath"] != nil {
                return .failure(.invalid("ath on a token request"))
            }
            if let nonce, try claims.string("nonce") != nonce { return .failure(.nonce) }
            guard let jti = try claims.jwtID() else { return .failure(.invalid("jti")) }
            return .success(Checked(thumbprint: try key.thumbprint(), jti: jti))
        } catch let error as JWTError {
            return .failure(.invalid("proof: \(error.reason)"))
        } catch {
            return .failure(.invalid("proof: \(error)"))
        }
    }
}
#endif
