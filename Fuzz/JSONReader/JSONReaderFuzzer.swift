import FuzzSupport
import TokenKit

/// Fuzz target: the full JSON builder and the claims views agree on every input and accept
/// the same inputs (``JSONReaderConformance``). Any disagreement is a finding.
enum JSONReaderHarness {
    static func run(_ bytes: [UInt8]) {
        if let problem = JSONReaderConformance.disagreement(in: bytes) { FuzzInput.finding(problem) }
    }
}

#if TOKENKIT_FUZZING
/// libFuzzer's per-input entry point (its own `main`, when the linker picks that one, calls it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    JSONReaderHarness.run(FuzzInput.bytes(start, count))
    return 0
}
#endif

@main
enum JSONReaderFuzzer {
    static func main() {
        FuzzInput.main(callback: { start, count in
            JSONReaderHarness.run(FuzzInput.bytes(start, count))
            return 0
        }, harness: JSONReaderHarness.run)
    }
}
