import Dispatch
internal import CLibSecret

/// A `GCancellable` that cancels itself when a deadline passes, so no blocking libsecret or
/// GDBus call can outlive it (a hung provider would otherwise block for two 25 s D-Bus
/// timeouts; an unlock prompt could block forever).
///
/// Guarantees: the cancellable is cancelled at most once, by the timer, unless ``finish()``
/// ran first; the timer is torn down and the cancellable unreferenced exactly once.
final class Deadline: @unchecked Sendable {
    // @unchecked Sendable: GCancellable is thread-safe (g_cancellable_cancel may be called
    // from any thread), and `timer` is only touched in init, finish and deinit.
    let cancellable: UnsafeMutablePointer<GCancellable>
    /// The span the operation was given.
    let span: Duration
    private let timer: any DispatchSourceTimer

    /// Starts the timer: the cancellable is cancelled once `span` has passed.
    init(_ span: Duration) {
        // g_cancellable_new never returns NULL.
        cancellable = g_cancellable_new()
        self.span = span
        timer = DispatchSource.makeTimerSource(queue: Self.timerQueue)
        timer.schedule(deadline: .now() + span.clampedToZero.seconds)
        let target = UnsafeMutableRawPointer(cancellable)
        g_object_ref(target)  // the timer's own reference, dropped when it fires or is cancelled
        let box = SendablePointer(raw: target)
        timer.setEventHandler {
            g_cancellable_cancel(box.raw.assumingMemoryBound(to: GCancellable.self))
        }
        timer.setCancelHandler {
            g_object_unref(box.raw)
        }
        timer.resume()
    }

    /// A serial queue of its own (so it gets a thread even when the global pool is saturated
    /// and a deadline is never late because other work hogs the pool).
    private static let timerQueue = DispatchQueue(label: "dev.tokenkit.deadlines", qos: .userInitiated)

    /// Whether the deadline passed (and cancelled the operation).
    var expired: Bool { g_cancellable_is_cancelled(cancellable) != 0 }

    /// Runs `body` — a call that may wait for a person (an unlock or access prompt) — under a
    /// deadline of its own, `promptSpan`, holding this one off meanwhile; afterwards this
    /// deadline starts again with its full span. If it already passed, it stays passed.
    func holdingOff<T, E: Error>(for promptSpan: Duration, _ body: (Deadline) throws(E) -> T) throws(E) -> T {
        timer.schedule(deadline: .now() + promptSpan.clampedToZero.seconds + span.clampedToZero.seconds)
        defer { timer.schedule(deadline: .now() + span.clampedToZero.seconds) }
        let prompt = Deadline(promptSpan)
        defer { prompt.finish() }
        return try body(prompt)
    }

    /// Stops the timer; the operation finished in time.
    func finish() { timer.cancel() }

    deinit {
        timer.cancel()
        g_object_unref(cancellable)
    }
}

/// A raw pointer handed to a dispatch handler; safe because the pointee is a thread-safe
/// GObject kept alive by its own reference.
private struct SendablePointer: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
}
