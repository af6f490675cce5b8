import CBenchSupport

// The measuring loops every benchmark executable shares (TokenKitBench's table and rows,
// TokenKitAB's A/B worker). Rates are per second of `benchNanos()`: process CPU time, or wall
// time when `useWallClock` is set.

/// ops/s of `body`, run for about `seconds` after a calibration.
public func measure(seconds: Double, _ body: () throws -> Void) rethrows -> Double {
    var n = 1
    var elapsed: UInt64 = 0
    // Calibrate: double the batch until it takes >= 5 % of the budget.
    while true {
        let t0 = benchNanos()
        for _ in 0..<n { try body() }
        elapsed = benchNanos() - t0
        if Double(elapsed) >= seconds * 0.05e9 || n >= 1 << 30 { break }
        n *= 2
    }
    let perOp = Double(elapsed) / Double(n)
    let iterations = max(1, Int(seconds * 1e9 / max(perOp, 1)))
    let t0 = benchNanos()
    for _ in 0..<iterations { try body() }
    let t = benchNanos() - t0
    return Double(iterations) / (Double(t) / 1e9)
}

/// ``measure(seconds:_:)`` for an asynchronous body.
public func measureAsync(seconds: Double, _ body: () async throws -> Void) async rethrows -> Double {
    var n = 1
    var elapsed: UInt64 = 0
    while true {
        let t0 = benchNanos()
        for _ in 0..<n { try await body() }
        elapsed = benchNanos() - t0
        if Double(elapsed) >= seconds * 0.05e9 || n >= 1 << 30 { break }
        n *= 2
    }
    let perOp = Double(elapsed) / Double(n)
    let iterations = max(1, Int(seconds * 1e9 / max(perOp, 1)))
    let t0 = benchNanos()
    for _ in 0..<iterations { try await body() }
    let t = benchNanos() - t0
    return Double(iterations) / (Double(t) / 1e9)
}

/// Heap allocations per call of `body`, over `count` calls after one warm-up call.
public func allocations(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    cbench_alloc_counting(1)
    let before = cbench_alloc_count()
    for _ in 0..<count { try body() }
    let after = cbench_alloc_count()
    cbench_alloc_counting(0)
    return Double(after - before) / Double(count)
}

/// ``allocations(_:_:)`` for an asynchronous body.
public func allocationsAsync(_ count: Int, _ body: () async throws -> Void) async rethrows -> Double {
    try await body()
    cbench_alloc_counting(1)
    let before = cbench_alloc_count()
    for _ in 0..<count { try await body() }
    let after = cbench_alloc_count()
    cbench_alloc_counting(0)
    return Double(after - before) / Double(count)
}

/// The median of `xs` (NaN when empty).
public func median(_ xs: [Double]) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
