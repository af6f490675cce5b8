import Foundation
import TokenKitAuth

/// A clock that moves only when a test advances it.
final class ManualClock: TokenClock, @unchecked Sendable {
    // @unchecked: `current` is read and written only while `mutex` is held.
    private let mutex = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    var now: Date {
        mutex.lock()
        defer { mutex.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        mutex.lock()
        current += seconds
        mutex.unlock()
    }
}
