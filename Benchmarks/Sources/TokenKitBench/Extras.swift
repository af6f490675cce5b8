import BenchCore
import Dispatch
import TokenKit
#if canImport(Glibc)
import Glibc
#endif

typealias ExtraLine = (lib: String, alg: String, op: String, opsPerSecond: Double, note: String)

/// Measurements beyond the per-algorithm table: audit throughput and store round trips.
enum Extras {
    static func run(options: Options) async throws -> [ExtraLine] {
        var lines: [ExtraLine] = []
        lines += try audit(options: options)
        #if TOKENKIT_HAS_STORES
        var template = Array("/tmp/tokenkit-bench-store-XXXXXX".utf8CString)
        if let dir = mkdtemp(&template) {
            let path = String(cString: dir)
            lines += await StoreBench.run(quick: options.quick, dir: path)
            _ = try? run("/bin/rm", ["-rf", path])
        }
        #else
        progressLine("store round trips skipped: the root package has no encrypted-file / Secret Service store yet")
        #endif
        return lines
    }

    // MARK: Audit

    /// Generates `count` HS256 tokens (one a line) into a temp dir; returns the file, the secret file
    /// and the tokens.
    static func generateTokens(count: Int, dir: String) throws -> (file: String, secretFile: String, verifier: JWTVerifier) {
        var secret = [UInt8](repeating: 0, count: 32)
        for i in secret.indices { secret[i] = UInt8.random(in: 0...255) }
        let key = try JWTKey.hmac(secret: secret, keyID: "key-2026-11", algorithms: [.hs256])
        let signer = try JWTSigner(key: key, algorithm: .hs256)
        let (iat, exp) = Claims.times()
        var out = [UInt8]()
        out.reserveCapacity(count * 320)
        for i in 0..<count {
            var claims = JWTClaims()
            claims["iss"] = .string(Claims.issuer)
            claims["sub"] = .string("user-\(i)")
            claims["aud"] = .array([.string(Claims.audience), .string("billing")])
            claims["iat"] = .number(JSONNumber(iat - Int64(i % 3600)))
            claims["exp"] = .number(JSONNumber(exp + 3600 - Int64(i % 3600)))  // valid for 1–2 h
            claims["jti"] = .string(String(i, radix: 16))
            claims["roles"] = .array(Claims.roles.map { .string($0) })
            out.append(contentsOf: try signer.sign(claims).utf8)
            out.append(0x0A)
        }
        let file = dir + "/tokens.txt", secretFile = dir + "/secret.bin"
        try write(out, to: file)
        try write(secret, to: secretFile)
        // A secret file other users may read is refused by `tokenkit audit --secret`.
        guard chmod(secretFile, 0o600) == 0 else { throw BenchError("cannot chmod 600 \(secretFile)") }
        let verifier = JWTVerifier(key: key, options: ValidationOptions(algorithms: [.hs256], issuers: [Claims.issuer]))
        return (file, secretFile, verifier)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let f = fopen(path, "wb") else { throw BenchError("cannot write \(path)") }
        defer { fclose(f) }
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let f = fopen(path, "rb") else { throw BenchError("cannot read \(path)") }
        defer { fclose(f) }
        fseek(f, 0, SEEK_END)
        let size = ftell(f)
        fseek(f, 0, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: size)
        _ = bytes.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, size, f) }
        return bytes
    }

    /// In-process audit loop: read the file, split lines, decode (or verify) every token on
    /// `threads` threads. Wall time includes reading and splitting.
    static func inProcessAudit(file: String, verifier: JWTVerifier?, threads: Int) throws -> (tokens: Int, seconds: Double, cpuSeconds: Double, ok: Int) {
        let t0 = nowNanos()
        let c0 = cpuNanos()
        let bytes = try read(file)
        var starts: [Range<Int>] = []
        starts.reserveCapacity(bytes.count / 300 + 1)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var s = 0
            while s < buffer.count, let hit = memchr(base + s, 0x0A, buffer.count - s) {
                let i = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                if i > s { starts.append(s..<i) }
                s = i + 1
            }
            if s < buffer.count { starts.append(s..<buffer.count) }
        }
        let ranges = starts
        let okCounts = UnsafeMutableBufferPointer<Int>.allocate(capacity: threads)
        okCounts.initialize(repeating: 0)
        defer { okCounts.deallocate() }
        bytes.withUnsafeBufferPointer { buffer in
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                var ok = 0
                var i = t
                while i < ranges.count {
                    let token = String(decoding: UnsafeBufferPointer(rebasing: buffer[ranges[i]]), as: UTF8.self)
                    if let verifier {
                        if (try? verifier.verify(token)) != nil { ok += 1 }
                    } else if (try? UnverifiedJWT(parsing: token)) != nil {
                        ok += 1
                    }
                    i += threads
                }
                okCounts[t] = ok
            }
        }
        let seconds = Double(nowNanos() - t0) / 1e9
        return (ranges.count, seconds, Double(cpuNanos() - c0) / 1e9, okCounts.reduce(0, +))
    }

    static func audit(options: Options) throws -> [ExtraLine] {
        let n = options.auditTokens
        let label = n == 1_000_000 ? "audit-1m" : "audit-\(n / 1000)k"
        var template = Array("/tmp/tokenkit-bench-XXXXXX".utf8CString)
        guard let dirPointer = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        let dir = String(cString: dirPointer)
        defer { _ = try? run("/bin/rm", ["-rf", dir]) }
        progressLine("generating \(n) HS256 tokens…")
        let (file, secretFile, verifier) = try generateTokens(count: n, dir: dir)
        var lines: [ExtraLine] = []
        let runs = options.quick ? 1 : 3
        for (name, v) in [("decode", nil as JWTVerifier?), ("verify", verifier)] {
            var samples: [Double] = []
            var seconds: [Double] = []
            var cpu: [Double] = []
            for _ in 0..<runs {
                let r = try inProcessAudit(file: file, verifier: v, threads: 2)
                cpu.append(r.cpuSeconds)
                if r.ok != r.tokens { progressLine("warning: \(r.tokens - r.ok) of \(r.tokens) tokens did not \(name)") }
                samples.append(Double(r.tokens) / r.seconds)
                seconds.append(r.seconds)
            }
            lines.append(("tokenkit", "HS256", "\(label)-inprocess-\(name)", median(samples),
                          "2 threads, library loop (read+split+\(name)), median wall \(String(format: "%.2f", median(seconds)))s, CPU \(String(format: "%.2f", median(cpu)))s (= \(String(format: "%.2f", median(cpu) / 2))s on 2 idle cores) for \(n) tokens"))
        }
        if let cli = options.tokenkitCLI {
            for (name, extra) in [("decode", [String]()), ("verify", ["--secret", secretFile])] {
                var samples: [Double] = []
                var seconds: [Double] = []
                for _ in 0..<runs {
                    let t0 = nowNanos()
                    let status = try run(cli, ["audit", "--no-fail-on", "--format", "json", file] + extra, stdout: "/dev/null")
                    let s = Double(nowNanos() - t0) / 1e9
                    if status != 0 { progressLine("warning: tokenkit audit exited \(status)") }
                    samples.append(Double(n) / s)
                    seconds.append(s)
                }
                lines.append(("tokenkit", "HS256", "\(label)-cli-\(name)", median(samples),
                              "`tokenkit audit` wall time, median \(String(format: "%.2f", median(seconds)))s for \(n) tokens"))
            }
        }
        return lines
    }

    static func progressLine(_ s: String) { if showProgress { fputs(s + "\n", stderr) } }

    /// Runs a program, waits, returns its exit status.
    @discardableResult
    static func run(_ path: String, _ args: [String], stdout: String? = nil) throws -> Int32 {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout { posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The child starts with no blocked signals and default handlers (`openssl speed` times
        // itself with SIGALRM, which this process's threads may have blocked).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard rc == 0 else { throw BenchError("cannot run \(path): \(rc)") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }
}
