import BenchCore
import TokenKit
#if canImport(Glibc)
import Glibc
#endif

// TokenKitAB: one side of an A/B run (Benchmarks/ab). The script builds this executable twice,
// against a base commit (A) and against the working tree (B), starts both, and drives them
// alternately through stdin, so both sides are measured in the same run.
//
// Commands, one a line on stdin; one answer a line on stdout:
//   setup ROW        -> "ready ROW ALLOCS_PER_OP"   (prepares the row: keys, token, verifiers)
//   measure ROW S    -> "ops ROW OPS_PER_SECOND"    (one sample of about S seconds)
//   fetches ROW      -> "fetches ROW N"             (JWKS requests seen; verify-remote-jwks rows)
//   quit             -> exits 0
// Any failure answers "error MESSAGE" and exits 1. ROW is ALG/OP: ALG one of HS256, RS256,
// PS256, ES256, ES384, EdDSA; OP one of sign, verify, decode (single-threaded, TokenKitLib's
// cases: verify checks the signature, exp, iss and aud) or verify-remote-jwks (KeySourceVerifier
// over a RemoteJWKS warmed by one fetch from a loopback server; not HS256).
// Rates are per second of process CPU time, or of wall time with --wall.

/// One prepared row: its loop body, and the warm remote source behind it if any.
struct Row {
    enum Body {
        case sync(() throws -> Void)
        case async(() async throws -> Void)
    }
    let body: Body
    var remote: WarmRemoteKeys? = nil

    /// Heap allocations per operation (after one warm-up call).
    func allocationsPerOperation(_ count: Int) async throws -> Double {
        switch body {
        case .sync(let body): try allocations(count, body)
        case .async(let body): try await allocationsAsync(count, body)
        }
    }

    /// Operations per second over about `seconds`.
    func rate(seconds: Double) async throws -> Double {
        switch body {
        case .sync(let body): try measure(seconds: seconds, body)
        case .async(let body): try await measureAsync(seconds: seconds, body)
        }
    }
}

func answer(_ line: String) {
    fputs(line + "\n", stdout)
    fflush(stdout)
}

func failure(_ message: String) -> Never {
    answer("error \(message)")
    exit(1)
}

/// Parses `ALG/OP` and prepares it.
func makeRow(_ name: String) async throws -> Row {
    let parts = name.split(separator: "/").map(String.init)
    guard parts.count == 2, let alg = Alg.allCases.first(where: { $0.rawValue.lowercased() == parts[0].lowercased() }) else {
        throw BenchError("unknown row \(name) (ALG/OP, e.g. ES256/verify)")
    }
    if parts[1] == "verify-remote-jwks" {
        let keys = try await WarmRemoteKeys.make(alg)
        let verifier = keys.remoteVerifier, token = keys.token
        return Row(body: .async { _ = try await verifier.verify(token) }, remote: keys)
    }
    let (c, _) = try TokenKitLib.makeCase(try TokenKitLib.material(for: alg))
    guard ["sign", "verify", "decode"].contains(parts[1]), let body = c.body(parts[1]) else {
        throw BenchError("unknown operation \(parts[1]) (sign, verify, decode, verify-remote-jwks)")
    }
    return Row(body: .sync(body))
}

for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--wall": useWallClock = true
    default: failure("unknown option \(argument)")
    }
}

var rows: [String: Row] = [:]
while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    guard let command = words.first else { continue }
    do {
        switch (command, words.count) {
        case ("setup", 2):
            let row = try await makeRow(words[1])
            rows[words[1]] = row
            let count = words[1].uppercased().hasPrefix("RS") || words[1].uppercased().hasPrefix("PS") ? 200 : 1000
            answer("ready \(words[1]) \(try await row.allocationsPerOperation(count))")
        case ("measure", 3):
            guard let row = rows[words[1]] else { throw BenchError("row \(words[1]) was not set up") }
            guard let seconds = Double(words[2]), seconds > 0 else { throw BenchError("bad duration \(words[2])") }
            answer("ops \(words[1]) \(try await row.rate(seconds: seconds))")
        case ("fetches", 2):
            guard let keys = rows[words[1]]?.remote else { throw BenchError("row \(words[1]) has no remote key source") }
            answer("fetches \(words[1]) \(keys.fetches)")
        case ("quit", 1):
            exit(0)
        default:
            throw BenchError("unknown command: \(line)")
        }
    } catch {
        failure("\(error)")
    }
}
