import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// The Cleveroo API's every status code, over real HTTP to a real `cleveroo-server` process.
@Suite("Cleveroo API", .serialized)
struct CleverooAPITests {
    static let password = "correct horse battery"

    /// Registers a parent with a unique email and signs in; returns (email, login answer).
    static func parent(_ server: ServerProcess) async throws -> (email: String, login: [String: Any]) {
        let email = "p-\(UUID().uuidString.prefix(8))@example.com"
        let registered = try await HTTP.send("POST", server.url.at("/auth/register"), json: [
            "email": email, "phone": "+4930123456", "password": password, "confirmPassword": password,
        ])
        #expect(registered.status == 201, "\(registered.text)")
        let login = try await HTTP.send("POST", server.url.at("/auth/login/parent"), json: ["email": email, "password": password])
        #expect(login.status == 200, "\(login.text)")
        return (email, login.object)
    }

    @Test("register: 201 with the account and no children; 400 for missing fields, differing passwords, non-JSON; 409 for a taken email")
    func register() async throws {
        try await ServerProcess.with("cleveroo-server") { server in
            let email = "ann@example.com"
            let body: [String: Any] = ["email": email, "phone": "+4930123456", "password": Self.password, "confirmPassword": Self.password]
            let created = try await HTTP.send("POST", server.url.at("/auth/register"), json: body)
            #expect(created.status == 201)
            #expect(created.object["email"] as? String == email)
            #expect(created.object["phone"] as? String == "+4930123456")
            #expect((created.object["id"] as? String)?.isEmpty == false)
            #expect((created.object["children"] as? [Any])?.isEmpty == true)
            #expect(created.object["password"] == nil && !created.text.contains(Self.password))

            for field in ["email", "phone", "password", "confirmPassword"] {
                var missing = body
                missing[field] = nil
                let result = try await HTTP.send("POST", server.url.at("/auth/register"), json: missing)
                #expect(result.status == 400 && result.statusCode == 400, "\(field): \(result.text)")
                #expect(result.message == "\(field) is required")
            }
            var differing = body
            differing["email"] = "other@example.com"
            differing["confirmPassword"] = "something else"
            let mismatch = try await HTTP.send("POST", server.url.at("/auth/register"), json: differing)
            #expect(mismatch.status == 400 && mismatch.message == "passwords do not match")
            for raw in ["not json", "[1,2]", "", "{\"email\":"] {
                let result = try await HTTP.send("POST", server.url.at("/auth/register"), raw: raw)
                #expect(result.status == 400 && result.message == "the request body must be a JSON object", "\(raw): \(result.text)")
            }
            var sameEmailOtherCase = body
            sameEmailOtherCase["email"] = "ANN@example.com"
            let taken = try await HTTP.send("POST", server.url.at("/auth/register"), json: sameEmailOtherCase)
            #expect(taken.status == 409 && taken.statusCode == 409 && taken.message == "an account with this email already exists")
        }
    }

    @Test("login/parent: 200 with access and refresh tokens and the parent; 400 missing fields; 401 wrong password or unknown email")
    func loginParent() async throws {
        try await ServerProcess.with("cleveroo-server", ["--token-lifetime", "600"]) { server in
            let (email, login) = try await Self.parent(server)
            #expect(login["token_type"] as? String == "Bearer")
            #expect((login["expires_in"] as? NSNumber)?.intValue == 600)
            #expect((login["access_token"] as? String)?.split(separator: ".").count == 3)
            #expect((login["refresh_token"] as? String)?.isEmpty == false)
            let parent = login["parent"] as? [String: Any]
            #expect(parent?["email"] as? String == email)
            #expect(parent?["avatar"] as? String == "")
            #expect(parent?["phone"] as? String == "+4930123456")

            let missing = try await HTTP.send("POST", server.url.at("/auth/login/parent"), json: ["email": email])
            #expect(missing.status == 400 && missing.message == "password is required")
            let wrong = try await HTTP.send("POST", server.url.at("/auth/login/parent"), json: ["email": email, "password": "nope"])
            #expect(wrong.status == 401 && wrong.statusCode == 401 && wrong.message == "invalid email or password")
            let unknown = try await HTTP.send("POST", server.url.at("/auth/login/parent"), json: ["email": "nobody@example.com", "password": "nope"])
            #expect(unknown.status == 401 && unknown.message == "invalid email or password")
        }
    }

    @Test("children: 201 add, 200 list; 400 bad age, gender or missing field; 401 no or bad token; 409 taken username; child login 200/400/401/404; child token on parent routes 403")
    func children() async throws {
        try await ServerProcess.with("cleveroo-server") { server in
            let (_, login) = try await Self.parent(server)
            let token = try #require(login["access_token"] as? String)
            let parentID = try #require((login["parent"] as? [String: Any])?["id"] as? String)
            let username = "kid-\(UUID().uuidString.prefix(6))"
            let added = try await HTTP.send("POST", server.url.at("/parent/children"), json: ["username": username, "age": 9, "gender": "female"], bearer: token)
            #expect(added.status == 201, "\(added.text)")
            #expect(added.object["username"] as? String == username)
            #expect((added.object["age"] as? NSNumber)?.intValue == 9)
            #expect(added.object["gender"] as? String == "female")
            #expect(added.object["avatar"] as? String == "")
            #expect(added.object["parent"] as? String == parentID)

            for (body, message) in [
                (["username": "a1", "age": 0, "gender": "male"], "age must be 1 to 17"),
                (["username": "a2", "age": 18, "gender": "male"], "age must be 1 to 17"),
                (["username": "a3", "age": 9.5, "gender": "male"], "age must be a whole number"),
                (["username": "a4", "age": "9", "gender": "male"], "age must be a whole number"),
                (["username": "a5", "age": 9, "gender": "other"], "gender must be \"male\" or \"female\""),
                (["age": 9, "gender": "male"], "username is required"),
                (["username": "a6", "gender": "male"], "age is required"),
                (["username": "a7", "age": 9], "gender is required"),
            ] as [([String: Any], String)] {
                let result = try await HTTP.send("POST", server.url.at("/parent/children"), json: body, bearer: token)
                #expect(result.status == 400 && result.message == message, "\(body): \(result.text)")
            }
            let noToken = try await HTTP.send("POST", server.url.at("/parent/children"), json: ["username": "b1", "age": 5, "gender": "male"])
            #expect(noToken.status == 401 && noToken.statusCode == 401 && noToken.message == "missing bearer token")
            #expect(noToken.challenge == #"Bearer realm="cleveroo""#, "\(noToken)")
            let badToken = try await HTTP.send("GET", server.url.at("/parent/children"), bearer: token + "x")
            #expect(badToken.status == 401 && badToken.message?.hasPrefix("invalid or expired access token") == true, "\(badToken.text)")
            #expect(badToken.challenge?.hasPrefix(#"Bearer realm="cleveroo", error="invalid_token""#) == true, "\(badToken)")
            #expect(badToken.object.keys.sorted() == ["message", "statusCode"])
            let taken = try await HTTP.send("POST", server.url.at("/parent/children"), json: ["username": username, "age": 4, "gender": "male"], bearer: token)
            #expect(taken.status == 409 && taken.message == "this username is taken")

            let list = try await HTTP.send("GET", server.url.at("/parent/children"), bearer: token)
            #expect(list.status == 200)
            let children = try #require(list.json as? [[String: Any]])
            #expect(children.count == 1 && children.first?["username"] as? String == username)

            // A child signs in with the parent's password.
            let child = try await HTTP.send("POST", server.url.at("/auth/login/child"), json: ["username": username, "password": Self.password])
            #expect(child.status == 200, "\(child.text)")
            let childInfo = child.object["child"] as? [String: Any]
            #expect(childInfo?["username"] as? String == username && (childInfo?["age"] as? NSNumber)?.intValue == 9)
            #expect(childInfo?["gender"] as? String == "female" && childInfo?["avatar"] as? String == "")
            #expect(child.object["token_type"] as? String == "Bearer" && child.object["refresh_token"] is String)
            let wrong = try await HTTP.send("POST", server.url.at("/auth/login/child"), json: ["username": username, "password": "nope"])
            #expect(wrong.status == 401 && wrong.message == "invalid password")
            let unknown = try await HTTP.send("POST", server.url.at("/auth/login/child"), json: ["username": "nobody", "password": Self.password])
            #expect(unknown.status == 404 && unknown.statusCode == 404 && unknown.message == "no child with this username")
            let missing = try await HTTP.send("POST", server.url.at("/auth/login/child"), json: ["username": username])
            #expect(missing.status == 400 && missing.message == "password is required")

            // Role separation: a child's valid token is refused on parent routes.
            let childToken = try #require(child.object["access_token"] as? String)
            let forbiddenList = try await HTTP.send("GET", server.url.at("/parent/children"), bearer: childToken)
            #expect(forbiddenList.status == 403 && forbiddenList.statusCode == 403 && forbiddenList.message == "this route needs a parent account")
            #expect(forbiddenList.challenge?.hasPrefix(#"Bearer realm="cleveroo", error="insufficient_scope""#) == true, "\(forbiddenList)")
            #expect(forbiddenList.challenge?.hasSuffix(#"scope="role:parent""#) == true, "\(forbiddenList)")
            #expect(forbiddenList.object.keys.sorted() == ["message", "statusCode"])
            let forbiddenAdd = try await HTTP.send("POST", server.url.at("/parent/children"), json: ["username": "c9", "age": 5, "gender": "male"], bearer: childToken)
            #expect(forbiddenAdd.status == 403)
        }
    }

    @Test("refresh rotates; a reused refresh token is 401 and revokes its whole family; logout revokes")
    func refreshRotationAndReuse() async throws {
        try await ServerProcess.with("cleveroo-server") { server in
            let (_, login) = try await Self.parent(server)
            let first = try #require(login["refresh_token"] as? String)
            let rotated = try await HTTP.send("POST", server.url.at("/auth/refresh"), json: ["refresh_token": first])
            #expect(rotated.status == 200, "\(rotated.text)")
            let second = try #require(rotated.object["refresh_token"] as? String)
            #expect(second != first)
            let newAccess = try #require(rotated.object["access_token"] as? String)
            #expect(try await HTTP.send("GET", server.url.at("/parent/children"), bearer: newAccess).status == 200)

            // The first token again: reuse. 401, and the newer token of the same family dies too.
            let reuse = try await HTTP.send("POST", server.url.at("/auth/refresh"), json: ["refresh_token": first])
            #expect(reuse.status == 401 && reuse.message == "refresh token was already used; the session has been revoked")
            let afterReuse = try await HTTP.send("POST", server.url.at("/auth/refresh"), json: ["refresh_token": second])
            #expect(afterReuse.status == 401 && afterReuse.message == "refresh token has been revoked")

            // Another session of the same parent is untouched by that revocation; logout ends it.
            let other = try await HTTP.send("POST", server.url.at("/auth/login/parent"), json: ["email": (login["parent"] as? [String: Any])?["email"] as? String ?? "", "password": Self.password])
            let otherRefresh = try #require(other.object["refresh_token"] as? String)
            let out = try await HTTP.send("POST", server.url.at("/auth/logout"), json: ["refresh_token": otherRefresh])
            #expect(out.status == 204)
            let afterLogout = try await HTTP.send("POST", server.url.at("/auth/refresh"), json: ["refresh_token": otherRefresh])
            #expect(afterLogout.status == 401 && afterLogout.message == "refresh token has been revoked")

            for bad in ["", "garbage", first + "x", String(first.reversed())] {
                let result = try await HTTP.send("POST", server.url.at("/auth/refresh"), json: ["refresh_token": bad])
                #expect(result.status == (bad.isEmpty ? 400 : 401), "\(bad): \(result.text)")
            }
            let unknownLogout = try await HTTP.send("POST", server.url.at("/auth/logout"), json: ["refresh_token": "garbage"])
            #expect(unknownLogout.status == 401)
        }
    }

    @Test("access tokens are ES256 JWTs with kid, iss, aud, sub, role and exp, verifiable with the published JWKS")
    func accessTokenShapeAndJWKS() async throws {
        try await ServerProcess.with("cleveroo-server") { server in
            let (_, login) = try await Self.parent(server)
            let token = try #require(login["access_token"] as? String)
            let parts = token.split(separator: ".").map(String.init)
            let header = try #require(try JSONSerialization.jsonObject(with: base64URL(parts[0])) as? [String: Any])
            let claims = try #require(try JSONSerialization.jsonObject(with: base64URL(parts[1])) as? [String: Any])
            #expect(header["alg"] as? String == "ES256")
            let kid = try #require(header["kid"] as? String)
            #expect(claims["iss"] as? String == "urn:tokenkit-examples:cleveroo")
            #expect(claims["aud"] as? String == "cleveroo-api")
            #expect(claims["role"] as? String == "parent")
            #expect(claims["sub"] as? String == (login["parent"] as? [String: Any])?["id"] as? String)
            let exp = try #require((claims["exp"] as? NSNumber)?.doubleValue)
            let iat = try #require((claims["iat"] as? NSNumber)?.doubleValue)
            #expect(exp - iat == 900)

            let jwks = try await HTTP.send("GET", server.url.at("/.well-known/jwks.json"))
            #expect(jwks.status == 200)
            let keys = try #require(jwks.object["keys"] as? [[String: Any]])
            #expect(keys.count == 1 && keys.first?["kid"] as? String == kid && keys.first?["kty"] as? String == "EC")
            #expect(keys.first?["d"] == nil)

            // The signature checks out with the published JWKS (and only with it), as a resource
            // server would check it: ES256 only, Cleveroo's issuer and audience.
            let published = try JWKSet(json: jwks.text)
            let options = ValidationOptions(algorithms: [.es256], issuers: ["urn:tokenkit-examples:cleveroo"], audiences: ["cleveroo-api"])
            let verified = try JWTVerifier(keys: published, options: options).verify(token)
            #expect(try verified.claims.subject() == claims["sub"] as? String)
            var forged = Array(token.utf8)
            forged[forged.count - 2] = forged[forged.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let tampered = #expect(throws: JWTError.self) { try JWTVerifier(keys: published, options: options).verify(String(decoding: forged, as: UTF8.self)) }
            #expect(tampered?.code == .badSignature)
            let stranger = JWKSet(keys: [try JWTKey.generate(for: .es256, keyID: kid).publicKey()])
            let unpublished = #expect(throws: JWTError.self) { try JWTVerifier(keys: stranger, options: options).verify(token) }
            #expect(unpublished?.code == .badSignature)

            let unknown = try await HTTP.send("GET", server.url.at("/nowhere"))
            #expect(unknown.status == 404 && unknown.statusCode == 404)
        }
    }

    @Test("the first stdout line names the port; SIGTERM and SIGINT stop the server with exit 0", arguments: [SIGTERM, SIGINT])
    func startAndStop(signal: Int32) async throws {
        try await ServerProcess.with("cleveroo-server") { server in
            #expect(server.firstLine == "listening on http://127.0.0.1:\(server.port)")
            let jwks = try await HTTP.send("GET", server.url.at("/.well-known/jwks.json"))
            #expect(jwks.status == 200)
            #expect(await server.stop(signal: signal) == 0)
        }
    }

    @Test("bad options are refused before listening")
    func badOptions() async throws {
        for arguments in [["--token-lifetime", "901"], ["--token-lifetime", "0"], ["--port", "70000"]] {
            let result = try await TokenKitCLI(binary: "cleveroo-server").run(arguments, environment: .client())
            #expect(result.status != 0 && result.stdoutText.isEmpty, "\(arguments): \(result.summary)")
        }
    }
}

/// Decodes base64url without padding.
func base64URL(_ text: String) -> Data {
    var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base.count % 4 != 0 { base += "=" }
    return Data(base64Encoded: base) ?? Data()
}
