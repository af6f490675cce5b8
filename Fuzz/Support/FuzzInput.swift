import Foundation
#if TOKENKIT_FUZZING
import CFuzzDriver
#endif

/// What every TokenKit fuzz harness shares: how a finding is reported, and the replay
/// driver that runs a harness over files and corpus directories without libFuzzer (so the
/// seed corpora also run as ordinary tests, and a crash file can be replayed in a debugger).
public enum FuzzInput {
    /// Reports a finding and stops the process (libFuzzer then saves the input as a crash
    /// file). `what` must name the broken property, never echo the input's secrets or text.
    public static func finding(_ what: String) -> Never {
        fatalError("fuzz finding: \(what)")
    }

    /// Runs `harness` once per file named in `arguments` (a directory stands for every
    /// regular file in it, sorted by name) and prints how many inputs ran. Exits 64 when a
    /// path cannot be read, 0 otherwise; a finding stops the process inside `harness`.
    public static func replay(arguments: [String], harness: ([UInt8]) -> Void) -> Never {
        var files: [String] = []
        for path in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                fail("no such file or directory: \(path)")
            }
            if isDirectory.boolValue {
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                    fail("cannot list \(path)")
                }
                files += names.sorted().filter { !$0.hasPrefix(".") }.map { "\(path)/\($0)" }
            } else {
                files.append(path)
            }
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
            harness([UInt8](data))
        }
        print("replayed \(files.count) inputs")
        exit(0)
    }

    /// The process entry point of a fuzz target: under `-DTOKENKIT_FUZZING` hands the
    /// command line to libFuzzer's driver with `callback` (libFuzzer's flags, corpus
    /// directories, crash files); otherwise replays the named files and directories through
    /// `harness` (see ``replay(arguments:harness:)``).
    public static func main(
        callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt, harness: ([UInt8]) -> Void
    ) -> Never {
        #if TOKENKIT_FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        replay(arguments: Array(CommandLine.arguments.dropFirst()), harness: harness)
        #endif
    }

    /// Bytes libFuzzer passed to a callback, as an array.
    public static func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: count))
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(64)
    }
}
