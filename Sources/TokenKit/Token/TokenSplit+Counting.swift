#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TokenSplit {
    /// How many dots `bytes` holds, counting no further than `limit` (for naming what a
    /// token that ``dots(_:)`` refused looks like: a JWE has four, a JWS two).
    static func dotCount(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0, start = 0
        while count < limit, start < bytes.count, let hit = memchr(base + start, 0x2E, bytes.count - start) {
            count += 1
            start = UnsafeRawPointer(hit) - UnsafeRawPointer(base) + 1
        }
        return count
    }
}
