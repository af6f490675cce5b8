import Foundation

/// Prints `line` and a newline to stdout, unbuffered (so output and exit status always agree).
public func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
