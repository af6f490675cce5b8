#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered output to a file descriptor with `write(2)`: one system call per ~64 KiB
/// instead of one per line, for streaming millions of rows.
///
/// Not thread-safe. Bytes are written only by ``flush()`` (called when the buffer fills
/// and by the owner at the end); ``beforeFlush`` runs first (e.g. to clear a progress line
/// on the same terminal).
final class OutputBuffer {
    private let fd: Int32
    private var bytes: [UInt8] = []
    private let threshold: Int
    /// Called before buffered bytes are written.
    var beforeFlush: (() -> Void)?

    /// Output to `fd`, flushed whenever more than `threshold` bytes are pending.
    init(fileDescriptor fd: Int32, threshold: Int = 1 << 16) {
        self.fd = fd
        self.threshold = threshold
        bytes.reserveCapacity(threshold + 4096)
    }

    /// Appends raw bytes.
    func append(_ data: some Sequence<UInt8>) {
        bytes.append(contentsOf: data)
    }

    /// Appends a string's UTF-8.
    func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    func append(byte: UInt8) { bytes.append(byte) }

    /// Flushes when the threshold is exceeded.
    func flushIfNeeded() throws(OutputError) {
        if bytes.count >= threshold { try flush() }
    }

    /// Appends a chunk of rows; a large one is written straight to the descriptor (after the pending bytes)
    /// when it is at least the threshold, instead of being copied into the buffer.
    func append(chunk: [UInt8]) throws(OutputError) {
        guard chunk.count >= threshold else {
            bytes.append(contentsOf: chunk)
            return try flushIfNeeded()
        }
        try flush()
        beforeFlush?()
        try Self.writeAll(fd, chunk)
    }

    /// Writes every pending byte; throws when the descriptor refuses them.
    func flush() throws(OutputError) {
        guard !bytes.isEmpty else { return }
        beforeFlush?()
        defer { bytes.removeAll(keepingCapacity: true) }
        try Self.writeAll(fd, bytes)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(OutputError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                failure = n < 0 ? errno : EIO
                return
            }
        }
        if failure != 0 { throw OutputError(message: "cannot write output: \(String(cString: strerror(failure)))") }
    }
}

/// Standard output could not be written (e.g. a full disk).
struct OutputError: Error {
    /// One line for people.
    let message: String
}
