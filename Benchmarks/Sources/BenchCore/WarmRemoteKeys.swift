import Foundation
import TokenKit
import TokenKitURLSession
// The remote key sources live in TokenKitRemote since issue 23 (TokenKitAuth before it);
// Benchmarks/Package.swift defines TOKENKIT_HAS_REMOTE_TARGET when the root package has it,
// so the same source builds against a commit from either side of that move (Benchmarks/ab).
#if TOKENKIT_HAS_REMOTE_TARGET
import TokenKitRemote
#else
import TokenKitAuth
#endif

/// One algorithm's token and three verifiers of it: the key held statically, the same key
/// through a key source, and through a real `RemoteJWKS` warmed by one fetch.
///
/// The remote source runs over `URLSessionTransport` against a loopback HTTP server in this
/// process (`Cache-Control: max-age=3600`, so it stays fresh and never fetches again while
/// measured; ``fetches`` tells how many requests the server saw). Used by TokenKitBench's
/// `verify-remote-jwks` row and by TokenKitAB's.
public struct WarmRemoteKeys {
    /// `JWTVerifier(keys:)` over the JWKS document parsed locally (the baseline).
    public let staticVerifier: JWTVerifier
    /// `KeySourceVerifier` over that same `JWKSet` (the key-source path).
    public let sourceVerifier: KeySourceVerifier
    /// `KeySourceVerifier` over the warm `RemoteJWKS`.
    public let remoteVerifier: KeySourceVerifier
    /// A token all three accept (checked before this returns).
    public let token: String
    private let server: LoopbackServer

    /// Requests the loopback server has answered (1 after warming, and still 1 after a run).
    public var fetches: Int { server.requestCount }

    /// Generates a key for `alg`, publishes it, warms a `RemoteJWKS` with one fetch and
    /// checks that every verifier accepts the token. HMAC is refused: a remote key set
    /// never supplies a shared secret.
    public static func make(_ alg: Alg) async throws -> WarmRemoteKeys {
        guard alg != .hs256 else { throw BenchError("a remote key set never holds an HMAC secret") }
        let algorithm = TokenKitLib.algorithm(alg)
        let key = try JWTKey.generate(for: algorithm, keyID: "bench-\(alg.rawValue.lowercased())")
        let document = try JWKSet.publicDocument([key])
        let server = try LoopbackServer(body: document)
        let remote = try RemoteJWKS(.url(server.url), transport: URLSessionTransport(timeout: .seconds(10)))
        try await remote.prewarm()

        let validation = ValidationOptions(algorithms: [algorithm], issuers: [Claims.issuer], audiences: [Claims.audience])
        let staticKeys = try JWKSet(json: document)
        // Since issue 23 a key-source verifier names its issuer and audience itself; a base
        // commit from before it needs `Benchmarks/ab --base-define TOKENKIT_AB_BASE_BEFORE_ISSUE_23`.
        #if TOKENKIT_AB_BASE_BEFORE_ISSUE_23
        func sourceVerifier(_ source: any JWTKeySource) -> KeySourceVerifier { KeySourceVerifier(source: source, options: validation) }
        #else
        func sourceVerifier(_ source: any JWTKeySource) -> KeySourceVerifier {
            KeySourceVerifier(source: source, issuer: .exactly(Claims.issuer), audience: .exactly(Claims.audience), options: validation)
        }
        #endif
        let keys = WarmRemoteKeys(
            staticVerifier: JWTVerifier(keys: staticKeys, options: validation),
            sourceVerifier: sourceVerifier(staticKeys),
            remoteVerifier: sourceVerifier(remote),
            token: try JWTSigner(key: key, algorithm: algorithm).sign(TokenKitLib.claims()),
            server: server)
        _ = try keys.staticVerifier.verify(keys.token)
        _ = try await keys.sourceVerifier.verify(keys.token)
        _ = try await keys.remoteVerifier.verify(keys.token)
        return keys
    }
}
