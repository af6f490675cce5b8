#if Hummingbird
import Foundation
import ServiceLifecycle

/// Start-up work that a graceful shutdown (SIGTERM, SIGINT) may cut short.
///
/// The key pre-warm can wait for a slow or silent JWKS server up to its fetch timeout; a
/// SIGTERM meanwhile must end the process at once with status 0, not wait for the fetch
/// nor be killed by the signal. The work runs in a task of its own; this waits for it or
/// for the shutdown, whichever comes first, and leaves the work behind when the shutdown
/// wins (the process is about to exit).
enum StartupGate {
    /// Runs `work`; `true` when it finished, `false` when a graceful shutdown came first
    /// (including one already under way when this was called).
    static func finishesBeforeShutdown(_ work: @escaping @Sendable () async -> Void) async -> Bool {
        let gate = FirstAnswer()
        return await withGracefulShutdownHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                gate.install(continuation)
                Task {
                    await work()
                    gate.answer(true)
                }
            }
        } onGracefulShutdown: {
            gate.answer(false)
        }
    }
}

/// Resumes one continuation with the first answer given, whether the answer comes before or
/// after the continuation is installed; later answers are ignored.
private final class FirstAnswer: @unchecked Sendable {
    // @unchecked Sendable: `continuation` and `answered` are read and written only under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?
    private var answered: Bool?

    func install(_ continuation: CheckedContinuation<Bool, Never>) {
        lock.lock()
        if let answered {
            lock.unlock()
            continuation.resume(returning: answered)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func answer(_ value: Bool) {
        lock.lock()
        guard answered == nil else {
            lock.unlock()
            return
        }
        answered = value
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: value)
    }
}
#endif
