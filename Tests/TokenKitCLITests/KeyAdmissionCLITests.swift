import Foundation
import Testing
import TokenKitTestSupport

/// Key admission from the release binary (issue 23 item 1): `tokenkit verify --key` (PEM SPKI,
/// certificate, JWK, JWKS file), `--jwks FILE` and `tokenkit jwk` refuse every Ed25519/Ed448
/// key of small order, non-canonical or off the curve with exit 2 and one `error:` line naming
/// why (the existing contract for unusable keys); a JWKS that also holds a good key still
/// loads, and the forged token `R = identity, S = 0` exits 1.
@Suite("tokenkit: Edwards key admission")
struct KeyAdmissionCLITests {
    static func b64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func pem(_ label: String, _ der: [UInt8]) -> String {
        "-----BEGIN \(label)-----\n\(Data(der).base64EncodedString(options: .lineLength64Characters))\n-----END \(label)-----\n"
    }

    static func jwk(_ point: EdwardsTestPoint) -> String {
        #"{"kty":"OKP","crv":"\#(point.curve)","kid":"bad","x":"\#(b64(point.bytes))"}"#
    }

    /// The key files of every form for `point`, by name.
    static func files(_ point: EdwardsTestPoint, in dir: PrivateTemporaryDirectory) throws -> [(String, [String])] {
        let spki = DERWriter.edwardsSPKI(ed448: point.ed448, point: point.bytes)
        return [
            ("verify --key PEM", ["verify", "--key", try dir.write("spki.pem", pem("PUBLIC KEY", spki))]),
            ("verify --key certificate", ["verify", "--key", try dir.write("cert.pem", pem("CERTIFICATE", DERWriter.certificate(spki: spki)))]),
            ("verify --key JWK", ["verify", "--key", try dir.write("key.jwk", jwk(point))]),
            ("verify --key JWKS", ["verify", "--key", try dir.write("keys.jwks", #"{"keys":[\#(jwk(point))]}"#)]),
            ("verify --jwks FILE", ["verify", "--jwks", try dir.write("set.json", #"{"keys":[\#(jwk(point))]}"#)]),
            ("jwk", ["jwk", try dir.write("jwk.pem", pem("PUBLIC KEY", spki))]),
        ]
    }

    static func forged(_ point: EdwardsTestPoint, kid: Bool = true) -> String {
        let header = kid ? #"{"alg":"EdDSA","kid":"bad"}"# : #"{"alg":"EdDSA"}"#
        return b64(Array(header.utf8)) + "." + b64(Array(#"{"sub":"attacker","admin":true}"#.utf8)) + "."
            + b64(EdwardsTestPoint.forgedSignature(ed448: point.ed448))
    }

    @Test("every form of a refused key exits 2 with one error line naming why", arguments: EdwardsTestPoint.all)
    func refused(_ point: EdwardsTestPoint) async throws {
        let dir = try PrivateTemporaryDirectory()
        for (name, args) in try Self.files(point, in: dir) {
            let result = try await TokenKitCLI().run(args + (args[0] == "jwk" ? [] : [Self.forged(point)]), environment: .inherited)
            #expect(result.status == 2, "\(name) \(point): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(name)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("error: "), "\(name): \(result.stderr)")
            #expect(result.stderr.contains(point.problem.rawValue), "\(name) \(point): \(result.stderr)")
        }
    }

    @Test("a JWKS with the identity key and a good key loads; the forged token exits 1, a real token 0",
          arguments: EdwardsTestPoint.identities)
    func setWithAGoodKey(_ identity: EdwardsTestPoint) async throws {
        let dir = try PrivateTemporaryDirectory()
        let goodPEM = dir.file("good.pem")
        let keygen = try await TokenKitCLI().run(["keygen", "--alg", "EdDSA", "--curve", identity.curve, "--out", goodPEM], environment: .inherited)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let goodJWK = try await TokenKitCLI().run(["jwk", goodPEM], environment: .inherited)
        #expect(goodJWK.status == 0, "\(goodJWK.stderr)")
        let jwks = try dir.write("mixed.json", #"{"keys":[\#(Self.jwk(identity)),\#(goodJWK.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))]}"#)
        let signed = try await TokenKitCLI().run(["sign", "--alg", "EdDSA", "--key", goodPEM, #"{"sub":"alice"}"#], environment: .inherited)
        #expect(signed.status == 0, "\(signed.stderr)")
        for option in ["--key", "--jwks"] {
            for token in [Self.forged(identity), Self.forged(identity, kid: false)] {
                let attack = try await TokenKitCLI().run(["verify", option, jwks, token], environment: .inherited)
                #expect(attack.status == 1, "\(option): \(attack.stderr)")
                #expect(attack.stdout.isEmpty)
            }
            let real = try await TokenKitCLI().run(["verify", option, jwks, signed.stdoutText.trimmingCharacters(in: .newlines)], environment: .inherited)
            #expect(real.status == 0, "\(option): \(real.stderr)")
        }
    }
}
