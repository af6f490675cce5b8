import Foundation
import Testing
@testable import TokenKit

/// Small helpers shared by the test suites.
enum TestSupport {
    /// Raw bytes of a bundled vector file under `Vectors/`.
    static func vectorData(_ relativePath: String) throws -> Data {
        let url = Bundle.module.bundleURL.appendingPathComponent("Vectors").appendingPathComponent(relativePath)
        return try Data(contentsOf: url)
    }

    /// Hex string to bytes (Wycheproof encodes keys, messages and signatures in hex).
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var iterator = text.utf8.makeIterator()
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: preconditionFailure("not hex: \(c)")
            }
        }
        while let high = iterator.next() {
            guard let low = iterator.next() else { preconditionFailure("odd hex length") }
            bytes.append(nibble(high) << 4 | nibble(low))
        }
        return bytes
    }

    /// Base64url without padding of UTF-8 text.
    static func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }
}

/// Runs `body`, expecting it to throw a `JWTError` with `code`; returns the error for
/// further checks (or nil after recording a failure).
@discardableResult
func expectJWTError<T>(
    _ code: JWTError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> JWTError? {
    do {
        _ = try body()
        Issue.record("expected JWTError \(code), but the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as JWTError {
        #expect(error.code == code, "expected \(code), got \(error.code): \(error.reason)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected JWTError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
