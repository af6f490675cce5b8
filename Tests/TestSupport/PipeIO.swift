import Foundation

/// Pipe reads and writes that retry on EINTR (Foundation's FileHandle traps on it, and child
/// processes exiting deliver signals while tests wait on pipes).
public enum PipeIO {
    /// Reads until end of file.
    public static func readAll(_ handle: FileHandle) -> Data {
        let fd = handle.fileDescriptor
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                result.append(contentsOf: buffer[0..<n])
            } else if n == 0 || errno != EINTR {
                return result
            }
        }
    }

    /// Writes everything (stopping quietly if the reader went away), then closes the handle.
    public static func writeAllAndClose(_ handle: FileHandle, _ bytes: [UInt8]) {
        let fd = handle.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        try? handle.close()
    }
}
