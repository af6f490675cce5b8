#if Hummingbird && Postgres
import Foundation
import Logging
import Testing
import TokenKit
import TokenKitCrypto
import TokenKitTestSupport
import TokenKitAsyncHTTPClient
@testable import TokenKitAuth

/// Key admission is one gate for every public key, whatever its entry (issue 23 item 1).
///
/// Every entry through which a key reaches TokenKit — PEM SPKI, X.509 certificate, PKCS#8
/// private key, JWK (public and private), a JWKS document, a key file (PEM, JWK, JWKS), a
/// remote JWKS, a DPoP proof's `jwk` header as the test server verifies it, a stored DPoP key,
/// a `private_key_jwt` client key — × every Ed25519 and Ed448 key of small order (the identity
/// and the other torsion points), every non-canonical encoding, and an off-curve point: the
/// key is refused (a single key: an error naming why; in a set: dropped with its `kid` and
/// reason, the other keys kept). And per entry, the forged token `R = identity, S = 0`, which
/// verifies for any payload under the identity key when nothing checks it, does not verify.
@Suite("Key admission: every entry × every refused Edwards point")
struct EdwardsKeyAdmissionTests {
    enum Entry: String, CaseIterable, Sendable, CustomStringConvertible {
        case pemSPKI, certificate, pkcs8, jwk, jwkPrivate, jwks, keyFilePEM, keyFileJWK, keyFileJWKS
        case remoteJWKS, dpopProofHeader, dpopStoredKey, clientKeyFile

        var description: String { rawValue }

        /// Whether the entry loads a set that keeps its other keys (the bad one is dropped).
        var isSet: Bool { [.jwks, .keyFileJWKS, .remoteJWKS].contains(self) }
        /// Whether the entry reads a private key (the bad point is the public half it claims).
        var isPrivate: Bool { [.pkcs8, .jwkPrivate, .dpopStoredKey, .clientKeyFile].contains(self) }
    }

    static let badKeyID = "bad-\u{212A}"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func b64(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }
    static func pem(_ label: String, _ der: [UInt8]) -> String {
        "-----BEGIN \(label)-----\n\(Data(der).base64EncodedString(options: .lineLength64Characters))\n-----END \(label)-----\n"
    }

    /// The public JWK of `point`, with `kid` ``badKeyID``; with `d` when `privateSeed` is given.
    static func jwk(_ point: EdwardsTestPoint, privateSeed: [UInt8]? = nil) -> String {
        let d = privateSeed.map { #","d":"\#(b64($0))""# } ?? ""
        return #"{"kty":"OKP","crv":"\#(point.curve)","kid":"\#(badKeyID)","x":"\#(b64(point.bytes))"\#(d)}"#
    }

    /// A real key of the same curve, as a signing key with kid "good".
    static func goodKey(_ point: EdwardsTestPoint) throws -> JWTKey {
        point.ed448 ? try JWTKey.generateEd448().withKeyID("good") : try JWTKey.generate(for: .eddsa, keyID: "good")
    }

    /// A JWKS with the bad key first, then `good`'s public key.
    static func jwks(_ point: EdwardsTestPoint, good: JWTKey) throws -> String {
        #"{"keys":[\#(jwk(point)),\#(try good.publicKey().jwk())]}"#
    }

    static func seed(_ point: EdwardsTestPoint) -> [UInt8] { (0..<(point.ed448 ? 57 : 32)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) } }

    /// What `entry` yields for `point`: the verification keys, or the error that refused it.
    /// Set entries carry a good key too; `logs` receives the remote source's log lines.
    static func load(_ entry: Entry, _ point: EdwardsTestPoint, good: JWTKey, logs: LogCapture) async throws -> JWKSet {
        let spki = DERWriter.edwardsSPKI(ed448: point.ed448, point: point.bytes)
        switch entry {
        case .pemSPKI:
            return JWKSet(keys: [try JWTKey(pem: pem("PUBLIC KEY", spki))])
        case .certificate:
            return JWKSet(keys: [try JWTKey(pem: pem("CERTIFICATE", DERWriter.certificate(spki: spki)))])
        case .pkcs8:
            let der = DERWriter.edwardsPKCS8(ed448: point.ed448, seed: seed(point), publicKey: point.bytes)
            return JWKSet(keys: [try JWTKey(pem: pem("PRIVATE KEY", der)).publicKey()])
        case .jwk:
            return JWKSet(keys: [try JWTKey(jwk: jwk(point))])
        case .jwkPrivate:
            return JWKSet(keys: [try JWTKey(jwk: jwk(point, privateSeed: seed(point))).publicKey()])
        case .jwks:
            return try JWKSet(json: jwks(point, good: good))
        case .keyFilePEM:
            return try KeyFile(contents: Array(pem("PUBLIC KEY", spki).utf8), for: .verification).keySet
        case .keyFileJWK:
            return try KeyFile(contents: Array(jwk(point).utf8), for: .verification).keySet
        case .keyFileJWKS:
            return try KeyFile(contents: Array(try jwks(point, good: good).utf8), for: .verification).keySet
        case .remoteJWKS:
            let document = try jwks(point, good: good)
            return try await ScriptedHTTPServer.with { server in
                await server.state.set("/jwks", .json(document))
                // One shared client for the hundreds of parallel cases (a URLSession per case put
                // them all on corelibs' one work queue, past the 10 s deadline in CI); which
                // transport fetches does not matter here: FetchGateTests covers both.
                let source = try RemoteJWKS(.url(server.url("/jwks")), transport: AsyncHTTPClientTransport.shared, options: RemoteJWKSOptions(fetch: .unhurried), logger: logs.logger())
                let keys = try await source.keySet()
                #expect(source.status.droppedKeys == keys.droppedKeys, "the status shows the set's dropped keys")
                return keys
            }
        case .dpopProofHeader:
            // The verifier of the test authorization server: the proof's `jwk` header, read
            // with TokenKit's JWK entry, as every DPoP verifier built on TokenKit reads it.
            let proof = forgedToken(point, header: #"{"typ":"dpop+jwt","alg":"EdDSA","jwk":\#(jwk(point))}"#)
            guard let header = try UnverifiedJWT(parsing: proof).header.raw["jwk"]?.objectValue else {
                throw JWTError(code: .malformed, reason: "no jwk header")
            }
            return JWKSet(keys: [try JWTKey(jwk: header)])
        case .dpopStoredKey:
            do {
                let key = try DPoPKey(privateJWK: jwk(point, privateSeed: seed(point)))
                throw JWTError(code: .invalidKey, reason: "unexpectedly loaded \(key)")
            } catch let error as AuthError {
                throw JWTError(code: .invalidKey, reason: error.message)
            }
        case .clientKeyFile:
            // What `--client-key` and applications hand to ClientAuthentication.privateKeyJWT.
            let keys = try KeyFile(contents: Array(jwk(point, privateSeed: seed(point)).utf8), for: .signing).keySet
            _ = try ClientAuthentication.privateKeyJWT(key: keys.keys[0])
            return JWKSet(keys: [try keys.keys[0].publicKey()])
        }
    }

    /// A token signed `R = identity, S = 0` for `point`'s curve, with kid ``badKeyID``.
    static func forgedToken(_ point: EdwardsTestPoint, header: String? = nil) -> String {
        let header = header ?? #"{"alg":"EdDSA","kid":"\#(badKeyID)"}"#
        let payload = #"{"sub":"attacker","admin":true,"exp":1900000000}"#
        return b64(Array(header.utf8)) + "." + b64(Array(payload.utf8)) + "." + b64(EdwardsTestPoint.forgedSignature(ed448: point.ed448))
    }

    static func verifier(_ keys: JWKSet) -> JWTVerifier {
        JWTVerifier(keys: keys, options: ValidationOptions(requiredClaims: [], clock: FixedClock(now)))
    }

    @Test("each entry refuses each small-order, non-canonical and off-curve key, naming why",
          arguments: Entry.allCases, EdwardsTestPoint.all)
    func refused(_ entry: Entry, _ point: EdwardsTestPoint) async throws {
        let good = try Self.goodKey(point)
        let logs = LogCapture()
        let outcome: Result<JWKSet, any Error>
        do { outcome = .success(try await Self.load(entry, point, good: good, logs: logs)) } catch { outcome = .failure(error) }
        switch outcome {
        case .success(let keys):
            #expect(entry.isSet, "\(entry) loaded \(point)")
            guard entry.isSet else { return }
            #expect(keys.keys.map(\.keyID) == ["good"], "only the good key is kept")
            let dropped = keys.droppedKeys
            #expect(dropped.count == 1 && dropped.first?.index == 0)
            #expect(dropped.first?.keyID == Self.badKeyID && dropped.first?.keyID?.unicodeScalars.last == "\u{212A}")
            #expect(dropped.first?.reason.contains(point.problem.rawValue) == true, "\(dropped)")
            if entry == .remoteJWKS {
                let warning = logs.all.first { $0.contains("JWKS key dropped") }
                #expect(warning?.contains(point.problem.rawValue) == true, "\(logs.all)")
            }
        case .failure(let error):
            #expect(!entry.isSet, "\(entry): a set with a good key must still load: \(error)")
            let reason = (error as? JWTError)?.reason ?? "\(error)"
            if entry.isPrivate {
                // A private key's public half is derived from it: the claimed bad point is
                // refused as a mismatch or a malformed key, never taken.
                #expect(reason.contains("does not match") || reason.contains("malformed") || reason.contains(point.problem.rawValue), "\(reason)")
            } else {
                #expect(reason.contains(point.problem.rawValue), "\(entry) \(point): \(reason)")
            }
        }
    }

    @Test("the forged token R = identity, S = 0 verifies from no entry", arguments: Entry.allCases, EdwardsTestPoint.identities)
    func forgedTokenRefused(_ entry: Entry, _ identity: EdwardsTestPoint) async throws {
        let good = try Self.goodKey(identity)
        guard let keys = try? await Self.load(entry, identity, good: good, logs: LogCapture()) else {
            #expect(!entry.isSet, "\(entry): the set did not load")
            return
        }
        #expect(entry.isSet, "\(entry) loaded the identity key")
        #expect(!keys.keys.contains { $0.keyID == Self.badKeyID })
        #expect(throws: JWTError.self, "\(entry) verified a forged token") { _ = try Self.verifier(keys).verify(Self.forgedToken(identity)) }
        // Without a kid the token is tried against every key that may verify EdDSA.
        let unnamed = Self.forgedToken(identity, header: #"{"alg":"EdDSA"}"#)
        #expect(throws: JWTError.self) { _ = try Self.verifier(keys).verify(unnamed) }
    }

    @Test("the DPoP verifier of the test server refuses a forged proof whose jwk is the identity", arguments: EdwardsTestPoint.identities)
    func forgedDPoPProof(_ identity: EdwardsTestPoint) async throws {
        let state = try AuthorizationServerState(clock: FixedClock(Self.now))
        await state.set(baseURL: "http://127.0.0.1:1")
        let header = #"{"typ":"dpop+jwt","alg":"EdDSA","jwk":{"kty":"OKP","crv":"\#(identity.curve)","x":"\#(Self.b64(identity.bytes))"}}"#
        let payload = #"{"jti":"j-1","htm":"POST","htu":"http://127.0.0.1:1/token","iat":\#(Int(Self.now.timeIntervalSince1970))}"#
        let proof = Self.b64(Array(header.utf8)) + "." + Self.b64(Array(payload.utf8)) + "." + Self.b64(EdwardsTestPoint.forgedSignature(ed448: identity.ed448))
        let answer = await state.token(form: ["grant_type": "client_credentials"], authorization: AuthorizationServerState.serviceExpectedBasic, dpop: proof)
        #expect(answer.status == 400 && answer.body.contains("invalid_dpop_proof"), "\(answer.status) \(answer.body)")
        let refusal = await state.lastRefusal
        #expect(refusal?.contains("small order") == true, "\(refusal ?? "")")
    }

    @Test("a real key of each curve loads from every entry and verifies its own token (the harness is not a blanket refusal)",
          arguments: Entry.allCases, [false, true])
    func realKeysLoad(_ entry: Entry, _ ed448: Bool) async throws {
        let key = ed448 ? try JWTKey.generateEd448(keyID: Self.badKeyID) : try JWTKey.generate(for: .eddsa, keyID: Self.badKeyID)
        let object = try key.jwkObject(includingPrivate: true)
        let x = try Base64URL.decode(try #require(object["x"]?.stringValue))
        let d = try Base64URL.decode(try #require(object["d"]?.stringValue))
        let real = EdwardsTestPoint(name: "real key", ed448: ed448, bytes: x, problem: .smallOrder)
        let keys: JWKSet
        switch entry {
        case .pkcs8:
            keys = JWKSet(keys: [try JWTKey(pem: key.privateKeyPEM()).publicKey()])
        case .jwkPrivate, .dpopStoredKey, .clientKeyFile:
            if entry == .dpopStoredKey { _ = try DPoPKey(privateJWK: Self.jwk(real, privateSeed: d)) }
            if entry == .clientKeyFile {
                let file = try KeyFile(contents: Array(Self.jwk(real, privateSeed: d).utf8), for: .signing).keySet
                _ = try ClientAuthentication.privateKeyJWT(key: file.keys[0])
            }
            keys = JWKSet(keys: [try JWTKey(jwk: Self.jwk(real, privateSeed: d)).publicKey()])
        default:
            keys = try await Self.load(entry, real, good: try Self.goodKey(real), logs: LogCapture())
        }
        let token = try JWTSigner(key: key).sign(JWTClaims(JSONObject([("sub", .string("user"))])))
        let verified = try Self.verifier(keys).verify(token)
        #expect(try verified.claims.subject() == "user", "\(entry)")
        #expect(keys.droppedKeys.isEmpty)
    }
}
#endif
