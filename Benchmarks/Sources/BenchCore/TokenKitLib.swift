import TokenKit

/// TokenKit, the library under test.
public enum TokenKitLib {
    public static func material(for alg: Alg) throws -> KeyMaterial {
        switch alg {
        case .hs256:
            var secret = [UInt8](repeating: 0, count: 32)
            for i in secret.indices { secret[i] = UInt8.random(in: 0...255) }
            return KeyMaterial(alg: alg, secret: secret, privatePEM: "", publicPEM: "")
        default:
            let key = try JWTKey.generate(for: algorithm(alg))
            return KeyMaterial(alg: alg, secret: [], privatePEM: try key.privateKeyPEM(), publicPEM: try key.publicKeyPEM())
        }
    }

    public static func algorithm(_ alg: Alg) -> JWTAlgorithm {
        switch alg {
        case .hs256: .hs256
        case .rs256: .rs256
        case .ps256: .ps256
        case .es256: .es256
        case .es384: .es384
        case .eddsa: .eddsa
        }
    }

    public static func claims() -> JWTClaims {
        let (iat, exp) = Claims.times()
        var claims = JWTClaims()
        claims["sub"] = .string(Claims.subject)
        claims["iss"] = .string(Claims.issuer)
        claims["aud"] = .string(Claims.audience)
        claims["iat"] = .number(JSONNumber(iat))
        claims["exp"] = .number(JSONNumber(exp))
        claims["name"] = .string(Claims.name)
        claims["roles"] = .array(Claims.roles.map { .string($0) })
        claims["tenant"] = .string(Claims.tenant)
        return claims
    }

    public struct Setup {
        public let signer: JWTSigner
        public let verifier: JWTVerifier
        public let claims: JWTClaims
        public let token: String
    }

    public static func setup(_ m: KeyMaterial) throws -> Setup {
        let alg = algorithm(m.alg)
        let signingKey: JWTKey, verifyingKey: JWTKey
        if m.alg == .hs256 {
            signingKey = try JWTKey.hmac(secret: m.secret, algorithms: [alg])
            verifyingKey = signingKey
        } else {
            signingKey = try JWTKey(pem: m.privatePEM, algorithms: [alg])
            verifyingKey = try JWTKey(pem: m.publicPEM, algorithms: [alg])
        }
        let signer = try JWTSigner(key: signingKey, algorithm: alg)
        let options = ValidationOptions(algorithms: [alg], issuers: [Claims.issuer], audiences: [Claims.audience])
        let verifier = JWTVerifier(key: verifyingKey, options: options)
        let claims = claims()
        let token = try signer.sign(claims)
        return Setup(signer: signer, verifier: verifier, claims: claims, token: token)
    }

    public static func makeCase(_ m: KeyMaterial) throws -> (Case, token: String) {
        let s = try setup(m)
        // Sanity: the token verifies and has the claims.
        let verified = try s.verifier.verify(s.token)
        let subject = try verified.claims.subject()
        precondition(subject == Claims.subject)
        var c = Case()
        let signer = s.signer, verifier = s.verifier, claims = s.claims, token = s.token
        c.sign = { _ = try signer.sign(claims) }
        c.verify = { _ = try verifier.verify(token) }
        c.decode = { _ = try UnverifiedJWT(parsing: token) }
        return (c, token)
    }

    /// `count` distinct tokens signed with `m`'s key: one issuer and audience, a different
    /// `sub`, `jti` and `exp` in each (exp spread over 10 minutes past the hour ahead).
    public static func distinctTokens(_ m: KeyMaterial, count: Int) throws -> [String] {
        let s = try setup(m)
        let (iat, exp) = Claims.times()
        var claims = s.claims
        var tokens: [String] = []
        tokens.reserveCapacity(count)
        for i in 0..<count {
            claims["sub"] = .string("user-\(i)-\(UInt32.random(in: 0...UInt32.max))")
            claims["jti"] = .string("jti-\(i)-\(UInt64.random(in: 0...UInt64.max))")
            claims["iat"] = .number(JSONNumber(iat))
            claims["exp"] = .number(JSONNumber(exp + Int64(i % 600)))
            tokens.append(try s.signer.sign(claims))
        }
        precondition(Set(tokens).count == count, "the distinct-token stream has repeats")
        return tokens
    }

    /// A verify loop over a stream of distinct tokens.
    public static func distinctCase(_ m: KeyMaterial, tokens: [String]) throws -> () throws -> Void {
        let verifier = try setup(m).verifier
        for token in tokens.prefix(100) { _ = try verifier.verify(token) }  // sanity
        let cursor = StreamCursor(tokens)
        return { _ = try verifier.verify(cursor.next()) }
    }

    /// Verifies a token made by another library (cross-check that both sides agree).
    public static func crossVerify(_ m: KeyMaterial, token: String) -> Bool {
        guard let s = try? setup(m) else { return false }
        return (try? s.verifier.verify(token)) != nil
    }
}
