/// Output built a fragment at a time in memory the writer manages: what the token writer
/// and the CLI's row formatters write into.
///
/// An `Array` checks uniqueness and capacity and goes through generic copying code on every
/// `append(contentsOf:)`; for output made of many short fragments (a JSON line is about forty)
/// that bookkeeping costs more than the bytes. This writer checks only capacity, and lets a
/// caller that knows a bound on its output (the JSON string escaper) write straight into
/// reserved memory.
///
/// Guarantees: bytes are kept in append order; capacity grows as needed (doubling), so no
/// append fails short of memory exhaustion; storage the writer allocated is freed when it
/// ends. A writer from ``withScratch(capacity:_:)`` starts in stack memory and moves to the
/// heap only when a row outgrows it. Not thread-safe; non-copyable, so it is never shared.
package struct ByteWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Whether `start` was allocated by the writer (and must be freed by it).
    private var ownsStorage: Bool
    private var written: Int

    /// Number of bytes written.
    package var count: Int { written }

    /// An empty writer with room for `capacity` bytes on the heap.
    package init(capacity: Int = 256) {
        let capacity = max(capacity, 16)
        start = .allocate(capacity: capacity)
        self.capacity = capacity
        ownsStorage = true
        written = 0
    }

    /// A writer over `capacity` bytes at `start` (not owned: left alone when the writer ends
    /// or grows).
    private init(over start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
        ownsStorage = false
        written = 0
    }

    deinit {
        if ownsStorage { start.deallocate() }
    }

    /// Calls `body` with an empty writer whose first `capacity` bytes are on the stack.
    /// The writer ends with `body`: copy out what it wrote (``withBytes(_:)``) before returning.
    /// Not generic on purpose: callers in other modules (the CLI renders every audit row in
    /// one) would otherwise go through the unspecialised generic entry point.
    package static func withScratch(capacity: Int = 1024, _ body: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(capacity, 16)) { buffer in
            // A non-empty temporary allocation always has an address.
            guard let start = buffer.baseAddress else { preconditionFailure("no temporary buffer") }
            var writer = ByteWriter(over: start, capacity: buffer.count)
            body(&writer)
        }
    }

    /// Appends one byte.
    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        if written == capacity { grow(toHold: 1) }
        start[written] = byte
        written += 1
    }

    /// Appends `bytes`.
    @inline(__always)
    package mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - written < bytes.count { grow(toHold: bytes.count) }
        (start + written).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        written += bytes.count
    }

    /// Appends `bytes`.
    @inline(__always)
    package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: UnsafeRawBufferPointer(bytes))
    }

    /// Appends fixed text (punctuation, key names) in one piece. Any literal works, including
    /// a single-scalar one (which a `StaticString` may hold without a UTF-8 pointer).
    @inline(__always)
    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends the UTF-8 of `text`.
    package mutating func append(utf8Of text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if done == nil {
            var copy = text
            copy.withUTF8 { append(contentsOf: $0) }
        }
    }

    /// Appends `count` copies of `byte`.
    package mutating func append(repeating byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        if capacity - written < repeats { grow(toHold: repeats) }
        (start + written).update(repeating: byte, count: repeats)
        written += repeats
    }

    /// Inserts `count` copies of `byte` at `index` (0...`count`), moving what follows.
    package mutating func insert(repeating byte: UInt8, count repeats: Int, at index: Int) {
        precondition(index >= 0 && index <= written, "insertion index out of range")
        guard repeats > 0 else { return }
        if capacity - written < repeats { grow(toHold: repeats) }
        (start + index + repeats).update(from: start + index, count: written - index)  // memmove
        (start + index).update(repeating: byte, count: repeats)
        written += repeats
    }

    /// Lets `body` write at most `maxCount` bytes straight into reserved memory; `body`
    /// returns how many it wrote (checked: at most `maxCount`).
    @inline(__always)
    package mutating func write(atMost maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if capacity - written < maxCount { grow(toHold: maxCount) }
        let added = body(start + written)
        precondition(added >= 0 && added <= maxCount, "ByteWriter.write wrote past its bound")
        written += added
    }

    /// Calls `body` with the bytes written so far (valid only during the call).
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: start, count: written))
    }

    /// The bytes written so far, as an array.
    package var array: [UInt8] { Array(UnsafeBufferPointer(start: start, count: written)) }

    /// Makes room for `extra` more bytes: at least doubles the capacity, keeps the bytes.
    private mutating func grow(toHold extra: Int) {
        let (needed, overflow) = written.addingReportingOverflow(extra)
        precondition(!overflow, "ByteWriter size overflow")
        guard needed > capacity else { return }
        let newCapacity = Swift.max(needed, capacity <= Int.max / 2 ? capacity * 2 : Int.max)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        storage.initialize(from: start, count: written)
        if ownsStorage { start.deallocate() }
        start = storage
        capacity = newCapacity
        ownsStorage = true
    }
}
