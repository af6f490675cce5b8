import Foundation

/// A held ``RefreshLock``. ``release()`` gives it up; releasing twice is harmless, and a
/// lease that is dropped without ``release()`` is released when it is deallocated.
public final class RefreshLockLease: Sendable {
    private let state: LeaseState

    /// Creates a lease that runs `release` exactly once.
    public init(release: @escaping @Sendable () -> Void) {
        state = LeaseState(release: release)
    }

    /// Releases the lock (only the first call has an effect).
    public func release() { state.releaseOnce() }

    deinit { state.releaseOnce() }
}

/// The release action behind a lock, so that it runs exactly once from any thread.
private final class LeaseState: @unchecked Sendable {
    // @unchecked: `action` is read and cleared only while `mutex` is held.
    private let mutex = NSLock()
    private var action: (@Sendable () -> Void)?

    init(release: @escaping @Sendable () -> Void) { action = release }

    func releaseOnce() {
        mutex.lock()
        let run = action
        action = nil
        mutex.unlock()
        run?()
    }
}
