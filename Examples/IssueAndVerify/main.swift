// An issuer and a verifier sharing keys through a JWKS, the way two services would.
//
// The issuer signs short-lived access tokens for a parent and a child account with its
// current ES256 key; the verifier knows only the published JWKS (public keys, chosen by
// `kid`) and accepts a token only for its own audience. Run: swift run issue-and-verify
import Foundation
import TokenKit

func run() throws {
    // Issuer side: a key with a kid, and its public JWKS for others to fetch.
    let signingKey = try JWTKey.generate(for: .es256)
    let kid = try signingKey.thumbprint()
    let issuerKey = signingKey.withKeyID(kid)
    let jwks = "{\"keys\":[\(try issuerKey.publicKey().jwk())]}"
    let signer = try JWTSigner(key: issuerKey)

    struct AccessClaims: Codable {
        var iss: String
        var sub: String
        var aud: Audience
        var iat: Date
        var exp: Date
        var role: String
        var parent: String?
    }

    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let parentToken = try signer.sign(AccessClaims(
        iss: "https://id.example", sub: "parent-42", aud: "family-api",
        iat: now, exp: now.addingTimeInterval(900), role: "parent", parent: nil))
    let childToken = try signer.sign(AccessClaims(
        iss: "https://id.example", sub: "child-7", aud: "family-api",
        iat: now, exp: now.addingTimeInterval(900), role: "child", parent: "parent-42"))
    print("issued 2 tokens with kid \(kid)")

    // Verifier side: only the JWKS text, its own audience, the issuer, a little leeway.
    let verifier = JWTVerifier(
        keys: try JWKSet(json: jwks),
        options: ValidationOptions(
            leeway: .seconds(30), issuers: ["https://id.example"], audiences: ["family-api"],
            clock: FixedClock(now.addingTimeInterval(60))))

    for token in [parentToken, childToken] {
        let claims = try verifier.verify(token, as: AccessClaims.self)
        print("verified \(claims.sub) (role \(claims.role)\(claims.parent.map { ", parent \($0)" } ?? ""))")
    }

    // What a verifier refuses, each with its reason.
    let later = JWTVerifier(keys: try JWKSet(json: jwks),
                            options: ValidationOptions(audiences: ["family-api"], clock: FixedClock(now.addingTimeInterval(3600))))
    let otherAudience = JWTVerifier(keys: try JWKSet(json: jwks),
                                    options: ValidationOptions(audiences: ["billing"], clock: FixedClock(now)))
    let stranger = try JWTSigner(key: try JWTKey.generate(for: .es256).withKeyID(kid))
    let forged = try stranger.sign(AccessClaims(
        iss: "https://id.example", sub: "parent-42", aud: "family-api",
        iat: now, exp: now.addingTimeInterval(900), role: "parent", parent: nil))
    for (label, attempt) in [
        ("an hour later", { _ = try later.verify(parentToken) }),
        ("for another audience", { _ = try otherAudience.verify(parentToken) }),
        ("signed by a stranger's key with our kid", { _ = try verifier.verify(forged) }),
    ] as [(String, () throws -> Void)] {
        do {
            try attempt()
            print("UNEXPECTED: accepted \(label)")
        } catch let error as JWTError {
            print("refused \(label): \(error.reason)")
        }
    }
}

do {
    try run()
} catch {
    print("error: \(error)")
    exit(1)
}
