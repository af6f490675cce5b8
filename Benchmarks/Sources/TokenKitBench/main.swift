import BenchCore
import CBenchSupport
#if canImport(Glibc)
import Glibc
#endif

// TokenKit benchmark: TokenKit vs vapor/jwt-kit vs the raw OpenSSL primitive, single-threaded;
// then TokenKit's verify on 1 vs 2 threads (--op verify-2-threads), through a warm remote
// JWKS vs a static key (--op verify-remote-jwks), and JWE decrypt and x5c verify beside their
// raw OpenSSL primitives (--op jose).
// Usage: TokenKitBench [--json] [--quick] [--runs N] [--seconds S] [--alg HS256,ES256] [--op sign,verify]
//                      [--no-extras] [--jose-row SUBSTRING]

struct Options {
    var json = false
    var quick = false
    var runs = 5
    var seconds = 0.4
    var algs = Alg.allCases
    var ops = ["sign", "verify", "verify-distinct", "decode", "verify-2-threads", "verify-remote-jwks", "jose"]
    /// Tokens in the stream of the verify-distinct row (HS256, ES256, EdDSA only).
    var distinctTokens = 100_000
    var libs = ["tokenkit", "jwt-kit", "openssl-raw"]
    var extras = true
    var auditTokens = 1_000_000
    var tokenkitCLI: String? = nil
    var opensslSpeed = true
    /// `--op jose`: only the rows whose name contains this (e.g. "ECDH"), for profiling.
    var joseRow: String? = nil

    init(_ args: [String]) {
        var i = 0
        func next() -> String { i += 1; return i < args.count ? args[i] : "" }
        while i < args.count {
            switch args[i] {
            case "--json": json = true
            case "--quick": quick = true; runs = 3; seconds = 0.1; auditTokens = 100_000; opensslSpeed = false; distinctTokens = 10_000
            case "--openssl-speed": opensslSpeed = true
            case "--no-openssl-speed": opensslSpeed = false
            case "--runs": runs = max(1, Int(next()) ?? runs)
            case "--seconds": seconds = Double(next()) ?? seconds
            case "--alg": algs = next().split(separator: ",").compactMap { name in Alg.allCases.first { $0.rawValue.lowercased() == name.lowercased() } }
            case "--op": ops = next().split(separator: ",").map(String.init)
            case "--lib": libs = next().split(separator: ",").map(String.init)
            case "--no-extras": extras = false
            case "--wall": useWallClock = true
            case "--audit-tokens": auditTokens = Int(next()) ?? auditTokens
            case "--tokenkit-cli": tokenkitCLI = next()
            case "--distinct-tokens": distinctTokens = max(1, Int(next()) ?? distinctTokens)
            case "--jose-row": joseRow = next()
            default:
                FileHandleOut.err("unknown option \(args[i])\n")
                exit(2)
            }
            i += 1
        }
    }
}

enum FileHandleOut {
    static func err(_ s: String) { fputs(s, stderr) }
    static func out(_ s: String) { fputs(s, stdout); fflush(stdout) }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
showProgress = !options.json
func progress(_ s: String) { if showProgress { FileHandleOut.err(s) } }

// MARK: - Output

struct Result {
    let lib: String, alg: String, op: String
    var samples: [Double] = []
    var allocsPerOp: Double? = nil
    var opsPerSecond: Double { median(samples) }
}

func formatNumber(_ x: Double, decimals: Int = 0) -> String {
    guard x.isFinite else { return "-" }
    var s = String(format: "%.\(decimals)f", x)
    if decimals == 0 {
        var out = ""
        for (i, ch) in s.reversed().enumerated() {
            if i > 0, i % 3 == 0, ch != "-" { out.append(",") }
            out.append(ch)
        }
        s = String(out.reversed())
    }
    return s
}

func jsonNumber(_ x: Double) -> String { x.isFinite ? String(format: "%.1f", x) : "null" }
func jsonRatio(_ x: Double) -> String { x.isFinite ? String(format: "%.3f", x) : "null" }

func pad(_ s: String, _ width: Int, right: Bool = true) -> String {
    let n = s.count
    if n >= width { return s }
    let fill = String(repeating: " ", count: width - n)
    return right ? fill + s : s + fill
}

// MARK: - Run

var results: [String: Result] = [:]
func key(_ lib: String, _ alg: String, _ op: String) -> String { "\(lib)|\(alg)|\(op)" }

struct AlgCases {
    var tokenkit: Case
    var jwtkit: Case?
    var raw: RawLib?
}

var cases: [Alg: AlgCases] = [:]
for alg in options.algs {
    progress("setting up \(alg.rawValue)…\n")
    let material = try TokenKitLib.material(for: alg)
    var (tk, tkToken) = try TokenKitLib.makeCase(material)
    var stream: [String] = []
    if options.ops.contains("verify-distinct"), distinctTokenAlgs.contains(alg) {
        progress("signing \(options.distinctTokens) distinct \(alg.rawValue) tokens…\n")
        stream = try TokenKitLib.distinctTokens(material, count: options.distinctTokens)
        tk.verifyDistinct = try TokenKitLib.distinctCase(material, tokens: stream)
    }
    var jk: Case? = nil
    if options.libs.contains("jwt-kit") {
        var (c, jkToken) = try await JWTKitLib.makeCase(material)
        if !stream.isEmpty { c.asyncVerifyDistinct = try await JWTKitLib.distinctCase(material, tokens: stream) }
        jk = c
        // Each library must accept the other's tokens (same claims, same key).
        if !TokenKitLib.crossVerify(material, token: jkToken) {
            FileHandleOut.err("warning: TokenKit does not verify jwt-kit's \(alg.rawValue) token\n")
        }
    }
    let signingInput = Array(tkToken.utf8[..<tkToken.utf8.lastIndex(of: UInt8(ascii: "."))!])
    let raw = options.libs.contains("openssl-raw") ? RawLib(material, signingInput: signingInput) : nil
    if options.libs.contains("openssl-raw"), raw == nil { FileHandleOut.err("warning: raw OpenSSL setup failed for \(alg.rawValue)\n") }
    cases[alg] = AlgCases(tokenkit: tk, jwtkit: jk, raw: raw)
}

for run in 1...options.runs {
    progress("run \(run)/\(options.runs)…\n")
    for alg in options.algs {
        guard let c = cases[alg] else { continue }
        for op in options.ops {
            // Interleave the libraries inside each run so drifting load hits all of them.
            for lib in options.libs {
                var sample: Double? = nil
                switch lib {
                case "tokenkit":
                    if let body = c.tokenkit.body(op) { sample = try measure(seconds: options.seconds, body) }
                case "jwt-kit":
                    guard let jk = c.jwtkit else { continue }
                    if let body = jk.asyncBody(op) { sample = try await measureAsync(seconds: options.seconds, body) }
                case "openssl-raw":
                    guard let raw = c.raw, op == "sign" || op == "verify" else { continue }
                    let rc = raw.makeCase()
                    if let body = op == "sign" ? rc.sign : rc.verify { sample = try measure(seconds: options.seconds, body) }
                default: continue
                }
                if let sample {
                    results[key(lib, alg.rawValue, op), default: Result(lib: lib, alg: alg.rawValue, op: op)].samples.append(sample)
                }
            }
        }
    }
}

// Allocations per operation (verify and decode; sign for reference).
for alg in options.algs {
    guard let c = cases[alg] else { continue }
    for op in options.ops {
        let n = alg == .rs256 || alg == .ps256 ? (op == "sign" ? 20 : 200) : 1000
        for lib in options.libs {
            var a: Double? = nil
            switch lib {
            case "tokenkit":
                if let body = c.tokenkit.body(op) { a = try allocations(n, body) }
            case "jwt-kit":
                if let jk = c.jwtkit, let body = jk.asyncBody(op) {
                    a = try await allocationsAsync(n, body)
                }
            case "openssl-raw":
                if let raw = c.raw, op == "sign" || op == "verify", let body = op == "sign" ? raw.makeCase().sign : raw.makeCase().verify { a = try allocations(n, body) }
            default: break
            }
            if let a { results[key(lib, alg.rawValue, op)]?.allocsPerOp = a }
        }
    }
}

// `openssl speed` for the asymmetric algorithms (a second reference for the limit).
var speed: [String: Double] = [:]
if options.opensslSpeed {
    progress("running openssl speed…\n")
    speed = OpenSSLSpeed.run(seconds: options.quick ? 1 : 2)
}

// MARK: - Issue 11 rows: 2-thread scaling, warm remote JWKS vs static key (TokenKit only)

let runsTokenKit = options.libs.contains("tokenkit")
var scalingRows: [Scaling.Row] = []
if runsTokenKit, options.ops.contains("verify-2-threads") { scalingRows = try Scaling.run(options: options) }
var remoteRows: [RemoteKeysBench.Row] = []
if runsTokenKit, options.ops.contains("verify-remote-jwks") { remoteRows = try await RemoteKeysBench.run(options: options) }
// Issue 28 rows: JWE decrypt and x5c verify beside the raw OpenSSL primitives.
var joseRows: [JOSEBench.Row] = []
if runsTokenKit || options.libs.contains("openssl-raw"), options.ops.contains("jose") { joseRows = try JOSEBench.run(options: options) }

// MARK: - Extras (audit, stores)

var extraLines: [(lib: String, alg: String, op: String, opsPerSecond: Double, note: String)] = []
if options.extras {
    for line in try await Extras.run(options: options) { extraLines.append(line) }
}

// MARK: - Report

func ratio(_ a: Double?, _ b: Double?) -> Double {
    guard let a, let b, b > 0 else { return .nan }
    return a / b
}

var jsonLines: [String] = []
for alg in options.algs {
    for op in options.ops {
        let tk = results[key("tokenkit", alg.rawValue, op)]?.opsPerSecond
        let jk = results[key("jwt-kit", alg.rawValue, op)]?.opsPerSecond
        let raw = results[key("openssl-raw", alg.rawValue, op)]?.opsPerSecond
        for lib in options.libs {
            guard let r = results[key(lib, alg.rawValue, op)] else { continue }
            var line = "{\"lib\":\"\(lib)\",\"alg\":\"\(alg.rawValue)\",\"op\":\"\(op)\",\"ops_per_s\":\(jsonNumber(r.opsPerSecond))"
            line += ",\"runs\":\(r.samples.count),\"min_ops_per_s\":\(jsonNumber(r.samples.min() ?? .nan)),\"max_ops_per_s\":\(jsonNumber(r.samples.max() ?? .nan))"
            if let a = r.allocsPerOp { line += ",\"allocs_per_op\":\(jsonNumber(a))" }
            let sp = speed["\(alg.rawValue)|\(op)"]
            if lib == "openssl-raw", let sp { line += ",\"openssl_speed_ops_per_s\":\(jsonNumber(sp))" }
            if lib == "tokenkit" {
                line += ",\"vs_jwt_kit\":\(jsonRatio(ratio(tk, jk))),\"vs_openssl_raw\":\(jsonRatio(ratio(tk, raw)))"
                if let sp { line += ",\"vs_openssl_speed\":\(jsonRatio(ratio(tk, sp)))" }
            } else if lib == "jwt-kit" {
                line += ",\"vs_openssl_raw\":\(jsonRatio(ratio(jk, raw)))"
            }
            jsonLines.append(line + "}")
        }
    }
}
for e in extraLines {
    var line = "{\"lib\":\"\(e.lib)\",\"alg\":\"\(e.alg)\",\"op\":\"\(e.op)\",\"ops_per_s\":\(jsonNumber(e.opsPerSecond))"
    if !e.note.isEmpty { line += ",\"note\":\"\(e.note)\"" }
    jsonLines.append(line + "}")
}

for r in scalingRows {
    jsonLines.append("{\"lib\":\"tokenkit\",\"alg\":\"\(r.alg.rawValue)\",\"op\":\"verify-2-threads\",\"one_thread_ops_per_s\":\(jsonNumber(r.oneThread)),\"two_threads_ops_per_s\":\(jsonNumber(r.twoThreads)),\"ratio\":\(jsonRatio(r.ratio)),\"cores_busy\":\(jsonRatio(r.coresBusy)),\"runs\":\(r.runs),\"clock\":\"wall\"}")
}
for r in remoteRows {
    jsonLines.append("{\"lib\":\"tokenkit\",\"alg\":\"\(r.alg.rawValue)\",\"op\":\"verify-remote-jwks\",\"static_ops_per_s\":\(jsonNumber(r.staticKey)),\"static_source_ops_per_s\":\(jsonNumber(r.staticSource)),\"remote_ops_per_s\":\(jsonNumber(r.remote)),\"remote_vs_static\":\(jsonRatio(r.ratio)),\"fetches\":\(r.fetches)}")
}

for r in joseRows {
    jsonLines.append("{\"lib\":\"tokenkit\",\"op\":\"\(r.name)\",\"ops_per_s\":\(jsonNumber(r.tokenkit)),\"openssl_raw_ops_per_s\":\(jsonNumber(r.raw)),\"vs_openssl_raw\":\(jsonRatio(r.ratio))}")
}

if !options.json {
    var table = "\nTokenKit benchmark — single-threaded ops/s (\(useWallClock ? "wall clock" : "per second of process CPU time")), median of \(options.runs) run(s) of ~\(options.seconds)s each\n"
    table += "(openssl-raw: the OpenSSL primitive alone, in process, same key and signing input: hash + EVP_PKEY_sign/verify on a\n"
    table += " prepared context, EVP_DigestSign/Verify for EdDSA, EVP_MAC for HS256; ossl speed: `openssl speed` in the same run,\n"
    table += " which signs a precomputed digest (no hashing); allocs: heap allocations per op, counted by a malloc interposer)\n\n"
    let header = [pad("alg", 6, right: false), pad("op", 15, right: false), pad("tokenkit", 12), pad("jwt-kit", 12), pad("openssl-raw", 12),
                  pad("tk/jwt-kit", 11), pad("tk/raw", 8), pad("ossl speed", 11), pad("tk/speed", 9),
                  pad("allocs tk", 10), pad("allocs jk", 10)].joined(separator: " ")
    table += header + "\n" + String(repeating: "-", count: header.count) + "\n"
    for alg in options.algs {
        for op in options.ops {
            let tk = results[key("tokenkit", alg.rawValue, op)]
            let jk = results[key("jwt-kit", alg.rawValue, op)]
            let raw = results[key("openssl-raw", alg.rawValue, op)]
            if tk == nil && jk == nil && raw == nil { continue }
            func cell(_ r: Result?) -> String { r.map { formatNumber($0.opsPerSecond) } ?? "-" }
            func ratioCell(_ x: Double) -> String { x.isFinite ? String(format: "%.2f×", x) : "-" }
            let row = [pad(alg.rawValue, 6, right: false), pad(op, 15, right: false), pad(cell(tk), 12), pad(cell(jk), 12), pad(cell(raw), 12),
                       pad(ratioCell(ratio(tk?.opsPerSecond, jk?.opsPerSecond)), 11), pad(ratioCell(ratio(tk?.opsPerSecond, raw?.opsPerSecond)), 8),
                       pad(speed["\(alg.rawValue)|\(op)"].map { formatNumber($0) } ?? "-", 11),
                       pad(ratioCell(ratio(tk?.opsPerSecond, speed["\(alg.rawValue)|\(op)"])), 9),
                       pad(tk?.allocsPerOp.map { formatNumber($0, decimals: 1) } ?? "-", 10),
                       pad(jk?.allocsPerOp.map { formatNumber($0, decimals: 1) } ?? "-", 10)].joined(separator: " ")
            table += row + "\n"
        }
    }
    if !scalingRows.isEmpty {
        table += "\nVerify on 1 and 2 threads, one shared JWTVerifier (wall clock, median of \(scalingRows[0].runs) alternating runs;\n"
        table += "cores busy: process CPU time / wall time of the 2-thread runs, 2.00 when both cores were free)\n"
        table += [pad("alg", 6, right: false), pad("1 thread", 12), pad("2 threads", 12), pad("ratio", 7), pad("cores busy", 11)].joined(separator: " ") + "\n"
        for r in scalingRows {
            table += [pad(r.alg.rawValue, 6, right: false), pad(formatNumber(r.oneThread), 12), pad(formatNumber(r.twoThreads), 12),
                      pad(String(format: "%.2f×", r.ratio), 7), pad(String(format: "%.2f", r.coresBusy), 11)].joined(separator: " ") + "\n"
        }
    }
    if !remoteRows.isEmpty {
        table += "\nVerify through a warm RemoteJWKS (URLSession, loopback, one fetch) vs the same key held statically, ops/s (\(useWallClock ? "wall" : "CPU") clock)\n"
        table += [pad("alg", 6, right: false), pad("static", 12), pad("static src", 12), pad("remote", 12), pad("remote/static", 14), pad("fetches", 8)].joined(separator: " ") + "\n"
        for r in remoteRows {
            table += [pad(r.alg.rawValue, 6, right: false), pad(formatNumber(r.staticKey), 12), pad(formatNumber(r.staticSource), 12),
                      pad(formatNumber(r.remote), 12), pad(String(format: "%.3f", r.ratio), 14), pad("\(r.fetches)", 8)].joined(separator: " ") + "\n"
        }
    }
    if !joseRows.isEmpty {
        table += "\nJWE decrypt and x5c verify beside the raw OpenSSL primitives they use, ops/s (\(useWallClock ? "wall" : "CPU") clock; goal tk/raw >= 0.9)\n"
        table += [pad("row", 34, right: false), pad("tokenkit", 12), pad("openssl-raw", 12), pad("tk/raw", 8)].joined(separator: " ") + "\n"
        for r in joseRows {
            table += [pad(r.name, 34, right: false), pad(formatNumber(r.tokenkit), 12), pad(formatNumber(r.raw), 12),
                      pad(String(format: "%.2f×", r.ratio), 8)].joined(separator: " ") + "\n"
        }
    }
    if !extraLines.isEmpty {
        table += "\nExtras\n"
        for e in extraLines {
            table += "  \(pad(e.op, 22, right: false)) \(pad(e.alg, 6, right: false)) \(pad(e.lib, 9, right: false)) \(pad(formatNumber(e.opsPerSecond), 12)) /s  \(e.note)\n"
        }
    }
    FileHandleOut.out(table + "\n")
}
FileHandleOut.out(jsonLines.joined(separator: "\n") + "\n")
