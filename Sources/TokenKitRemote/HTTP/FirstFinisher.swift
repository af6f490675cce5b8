import Foundation

/// The first of several finishers wins; later ones are ignored.
final class FirstFinisher<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every field is read and written under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Swift.Result<Value, any Error>, Never>?
    private var early: Swift.Result<Value, any Error>?
    private var done = false
    private var cleanup: (@Sendable () -> Void)?

    func start(_ continuation: CheckedContinuation<Swift.Result<Value, any Error>, Never>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(returning: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func onFinish(_ body: @escaping @Sendable () -> Void) {
        lock.lock()
        if done {
            lock.unlock()
            body()
            return
        }
        cleanup = body
        lock.unlock()
    }

    func finish(_ result: Swift.Result<Value, any Error>) {
        lock.lock()
        guard !done else { lock.unlock(); return }
        done = true
        let waiting = continuation
        continuation = nil
        if waiting == nil { early = result }
        let body = cleanup
        cleanup = nil
        lock.unlock()
        waiting?.resume(returning: result)
        body?()
    }
}
