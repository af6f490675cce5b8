#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// `tokenkit verify --jwks URL`, `--issuer-discovery` and `audit --jwks URL` against a real
/// server, through the library's RemoteJWKS; `tokenkit jwk` with several keys.
@Suite("tokenkit with remote keys (process)")
struct RemoteKeysCLIProcessTests {
    static let environment = ["PATH": "/usr/bin:/bin"]

    @Test("verify --jwks URL and --issuer-discovery fetch once and verify; failures exit 2 with one error line")
    func verifyRemote() async throws {
        let cli = try TokenKitCLI()
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL
            await server.state.set("/jwks", .json(try TestSigningKey.jwks([k1])))
            await server.state.set("/.well-known/openid-configuration", .json(#"{"issuer":"\#(issuer)","jwks_uri":"\#(issuer)/jwks"}"#))
            let token = try k1.token(issuer: issuer)

            let byURL = try await cli.run(["verify", "--jwks", server.url("/jwks").absoluteString, token], environment: .exactly(Self.environment))
            #expect(byURL.status == 0, "\(byURL.stderr)")
            #expect(byURL.stdoutText.contains(#""sub":"user-1""#))

            let discovered = try await cli.run(["verify", "--issuer-discovery", "--iss", issuer, token], environment: .exactly(Self.environment))
            #expect(discovered.status == 0, "\(discovered.stderr)")
            #expect(await server.state.count("/.well-known/openid-configuration") == 1)

            // audit --jwks checks each token's signature with the fetched keys: the genuine
            // token passes, one signed by another key under the same kid is bad-signature.
            let jwksURL = server.url("/jwks").absoluteString
            let forged = try TestSigningKey(kid: "k1").token(issuer: issuer)
            let audit = try await cli.run(["audit", "--json", "--fail-on", "bad-signature", "--jwks", jwksURL, "-"], stdin: token + "\n" + forged + "\n", environment: .exactly(Self.environment))
            #expect(audit.status == 1, "\(audit.stderr)")
            let rows = audit.stdoutText.split(separator: "\n")
            #expect(rows.count == 2, "\(audit.stdoutText)")
            #expect(rows.first?.contains("bad-signature") == false, "\(audit.stdoutText)")
            #expect(rows.last?.contains(#""bad-signature""#) == true, "\(audit.stdoutText)")
            let genuine = try await cli.run(["audit", "--json", "--fail-on", "bad-signature", "--jwks", jwksURL, "-"], stdin: token + "\n", environment: .exactly(Self.environment))
            #expect(genuine.status == 0, "\(genuine.stderr)")

            await server.state.set("/jwks", ScriptedResponse(status: 302, headers: [("Location", "http://localhost:\(server.port)/elsewhere")]))
            let redirected = try await cli.run(["verify", "--jwks", server.url("/jwks").absoluteString, token], environment: .exactly(Self.environment))
            #expect(redirected.status == 2)
            #expect(redirected.stderr.hasPrefix("error: ") && redirected.stderr.contains("another origin"))
            #expect(redirected.stderr.split(separator: "\n").count == 1)

            let noIss = try await cli.run(["verify", "--issuer-discovery", token], environment: .exactly(Self.environment))
            #expect(noIss.status == 64)
        }
    }

    @Test("verify --jwks URL against an endless chunked body: exit 2 at the 1 MiB cap, peak RSS under 150 MB")
    func verifyEndlessJWKS() async throws {
        let cli = try TokenKitCLI()
        let token = try TestSigningKey(kid: "k1").token()
        try await HostileBodyServer.with(.endlessChunked) { server in
            let (outcome, peak) = try await cli.runMeasuringPeakRSS(
                ["verify", "--jwks", server.url("/jwks").absoluteString, token], environment: .exactly(Self.environment))
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("larger than 1048576 bytes"), "\(outcome.stderr)")
            #expect(peak < 150 * 1024 * 1024, "peak RSS \(peak / 1024 / 1024) MB")
        }
    }

    @Test("jwk with several keys prints a JWKS with RFC 7638 kids and public parameters only")
    func jwkSet() async throws {
        let cli = try TokenKitCLI()
        let dir = try PrivateTemporaryDirectory(prefix: "tokenkit-jwk")
        defer { withExtendedLifetime(dir) {} }
        let a = try JWTKey.generate(for: .es256), b = try JWTKey.generate(for: .rs256)
        // Private key files are secret files: 0600 (write's default), or tokenkit refuses them.
        for (key, name) in [(a, "a.pem"), (b, "b.pem")] {
            try dir.write(name, try key.privateKeyPEM())
        }

        let out = try await cli.run(["jwk", dir.file("a.pem"), dir.file("b.pem")], environment: .exactly(Self.environment))
        #expect(out.status == 0, "\(out.stderr)")
        let set = try JWKSet(json: out.stdoutText)
        let expectedKids = [try a.thumbprint(), try b.thumbprint()]
        #expect(set.keys.map(\.keyID) == expectedKids)
        let anySecret = set.keys.contains { $0.isSecret }
        #expect(!anySecret)
        #expect(!out.stdoutText.contains(#""d":"#))

        let single = try await cli.run(["jwk", "--set", dir.file("a.pem")], environment: .exactly(Self.environment))
        #expect(try JWKSet(json: single.stdoutText).keys.count == 1)

        let twice = try await cli.run(["jwk", dir.file("a.pem"), dir.file("a.pem")], environment: .exactly(Self.environment))
        #expect(twice.status == 2 && twice.stderr.contains("same key"))
    }
}
#endif
