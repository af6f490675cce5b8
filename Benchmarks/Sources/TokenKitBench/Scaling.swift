import BenchCore
import Dispatch
import Foundation
import TokenKit
#if canImport(Glibc)
import Glibc
#endif

/// Verify throughput on 1 thread and on 2 threads sharing one `JWTVerifier` (issue 11: 2
/// threads must give at least 1.8× the single-thread rate).
///
/// Wall clock, not CPU time: the question is how many tokens per second two threads get
/// through. Each thread verifies its own copy of the token (as two requests would), until a
/// common deadline. Runs alternate 1-thread and 2-thread measurements so drifting load hits
/// both; each figure is a median. The process CPU time of the 2-thread runs divided by their
/// wall time ("cores busy") shows whether two cores were actually free: well under 2 means
/// the machine was busy and the ratio says more about the load than about TokenKit.
enum Scaling {
    /// The algorithms of the row.
    static let algs: [Alg] = [.hs256, .es256, .rs256, .eddsa]

    struct Row {
        let alg: Alg
        let oneThread: Double
        let twoThreads: Double
        let coresBusy: Double
        let runs: Int
        var ratio: Double { twoThreads / oneThread }
    }

    static func run(options: Options) throws -> [Row] {
        var rows: [Row] = []
        for alg in algs where options.algs.contains(alg) {
            progress("verify scaling \(alg.rawValue)…\n")
            let setup = try TokenKitLib.setup(try TokenKitLib.material(for: alg))
            let verifier = setup.verifier
            // Separate String storage per thread, as two requests would have.
            let tokens = (0..<2).map { _ in String(decoding: Array(setup.token.utf8), as: UTF8.self) }
            _ = try verifier.verify(tokens[0])
            // Warm-up: pools and caches filled on both threads.
            _ = measure(threads: 2, seconds: 0.05, verifier: verifier, tokens: tokens)
            var one: [Double] = [], two: [Double] = [], busy: [Double] = []
            let runs = max(options.runs, 3)
            let seconds = max(options.seconds, 0.3)
            for _ in 0..<runs {
                one.append(measure(threads: 1, seconds: seconds, verifier: verifier, tokens: tokens).opsPerSecond)
                let r = measure(threads: 2, seconds: seconds, verifier: verifier, tokens: tokens)
                two.append(r.opsPerSecond)
                busy.append(r.coresBusy)
            }
            rows.append(Row(alg: alg, oneThread: median(one), twoThreads: median(two), coresBusy: median(busy), runs: runs))
        }
        return rows
    }

    /// Verifications per wall-clock second of `threads` threads until a common deadline, and
    /// the cores they kept busy (process CPU time / wall time).
    static func measure(threads: Int, seconds: Double, verifier: JWTVerifier, tokens: [String]) -> (opsPerSecond: Double, coresBusy: Double) {
        let counts = Tally(threads), failures = Tally(threads)
        defer { counts.free(); failures.free() }
        let c0 = cpuNanos()
        let t0 = nowNanos()
        let deadline = t0 + UInt64(seconds * 1e9)
        // Explicit threads (not concurrentPerform, which may run both iterations on one
        // thread when no worker is free in time).
        let done = DispatchSemaphore(value: 0)
        for t in 0..<threads {
            let thread = Thread {
                let token = tokens[t % tokens.count]
                var n = 0, failed = 0
                repeat {
                    for _ in 0..<32 where (try? verifier.verify(token)) == nil { failed += 1 }
                    n += 32
                } while nowNanos() < deadline
                counts.buffer[t * 16] = n
                failures.buffer[t * 16] = failed
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<threads { done.wait() }
        let wall = Double(nowNanos() - t0) / 1e9
        let cpu = Double(cpuNanos() - c0) / 1e9
        let total = counts.sum, failed = failures.sum
        precondition(failed == 0, "\(failed) verifications failed in the scaling row")
        return (Double(total) / wall, cpu / wall)
    }

    /// One counter per thread, each on a cache line of its own; each thread writes only its
    /// own, and the sums are read after every thread has signalled that it is done.
    struct Tally: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Int>
        let threads: Int
        init(_ threads: Int) {
            self.threads = threads
            buffer = .allocate(capacity: threads * 16)
            buffer.initialize(repeating: 0)
        }
        var sum: Int { (0..<threads).reduce(0) { $0 + buffer[$1 * 16] } }
        func free() { buffer.deallocate() }
    }
}
