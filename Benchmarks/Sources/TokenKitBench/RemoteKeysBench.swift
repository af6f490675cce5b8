import BenchCore

/// Verify through a warm remote key source vs the same key held statically, in the same run
/// (issue 11: within 10 %).
///
/// The three verifiers of ``WarmRemoteKeys`` (static key, key source over the same `JWKSet`,
/// warm `RemoteJWKS` over URLSession on loopback), measured interleaved within each run.
/// HMAC is not measured: a remote key set never supplies a shared secret.
enum RemoteKeysBench {
    static let algs: [Alg] = [.es256, .rs256, .eddsa]

    struct Row {
        let alg: Alg
        let staticKey: Double
        let staticSource: Double
        let remote: Double
        let fetches: Int
        var ratio: Double { remote / staticKey }
    }

    static func run(options: Options) async throws -> [Row] {
        var rows: [Row] = []
        for alg in algs where options.algs.contains(alg) {
            progress("warm remote JWKS vs static key \(alg.rawValue)…\n")
            let keys = try await WarmRemoteKeys.make(alg)
            let token = keys.token
            var a: [Double] = [], b: [Double] = [], c: [Double] = []
            for _ in 0..<options.runs {
                a.append(try measure(seconds: options.seconds) { _ = try keys.staticVerifier.verify(token) })
                b.append(try await measureAsync(seconds: options.seconds) { _ = try await keys.sourceVerifier.verify(token) })
                c.append(try await measureAsync(seconds: options.seconds) { _ = try await keys.remoteVerifier.verify(token) })
            }
            rows.append(Row(alg: alg, staticKey: median(a), staticSource: median(b), remote: median(c), fetches: keys.fetches))
        }
        return rows
    }
}
