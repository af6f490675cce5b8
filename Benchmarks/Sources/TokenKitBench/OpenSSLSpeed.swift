import BenchCore
#if canImport(Glibc)
import Glibc
#endif

/// `openssl speed` on the same machine in the same run: OpenSSL's own measurement of the
/// primitive (sign/verify of a precomputed digest; no hashing of the message), as a second
/// reference next to the in-process `openssl-raw` harness.
enum OpenSSLSpeed {
    /// ops/s by (alg, "sign"/"verify").
    static func run(seconds: Int) -> [String: Double] {
        let out = "/tmp/tokenkit-bench-openssl-speed-\(getpid()).txt"
        defer { unlink(out) }
        let status = try? Extras.run("/usr/bin/openssl", ["speed", "-seconds", String(seconds),
                                                          "rsa2048", "ecdsap256", "ecdsap384", "ed25519"], stdout: out)
        guard status == 0, let bytes = try? Extras.read(out) else { return [:] }
        var result: [String: Double] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let algs: [String]
            if line.hasPrefix("rsa 2048 bits") { algs = ["RS256", "PS256"] }
            else if line.contains("(nistp256)") { algs = ["ES256"] }
            else if line.contains("(nistp384)") { algs = ["ES384"] }
            else if line.contains("(Ed25519)") { algs = ["EdDSA"] }
            else { continue }
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            guard numbers.count >= 2 else { continue }
            for alg in algs {
                result["\(alg)|sign"] = numbers[numbers.count - 2]
                result["\(alg)|verify"] = numbers[numbers.count - 1]
            }
        }
        return result
    }
}
