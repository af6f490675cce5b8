#if os(Linux)
import Foundation
import Testing
@testable import TokenKit
@testable import TokenKitCrypto
import TokenKitTestSupport

/// Refused key material frees what OpenSSL decoded (issue 9, item 1: an `EVP_PKEY` leaked
/// whenever key DER had trailing bytes). Measured with the process's resident set: each round
/// refuses the same input thousands of times; a leak grows it by tens of MB every round, while
/// memory that concurrently running tests allocate and free is reused, so the smallest growth
/// of three rounds is compared. Not run under the sanitizer (`scripts/leak-check` sets
/// ASAN_OPTIONS and leaves this suite out; `scripts/test` runs it in another pass): there the
/// quarantine of freed memory grows the resident set whatever the code does, and LeakSanitizer
/// checks these same paths exactly in that run.
@Suite("Key loading does not leak on refusal",
       .disabled(if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil,
                 "under AddressSanitizer the resident set grows with its quarantine; LeakSanitizer checks these paths"))
struct KeyLoadingLeakTests {
    static let iterations = 20_000
    static let allowedGrowth = 8 * 1024 * 1024

    static let spki: [UInt8] = {
        guard let key = try? PKey.generate(.rsa), let der = try? key.subjectPublicKeyInfoDER() else {
            preconditionFailure("cannot generate an RSA key")
        }
        return der
    }()

    /// Resident bytes (`/proc/self/statm`, second field, in pages).
    static func heapInUse() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
            preconditionFailure("cannot read /proc/self/statm")
        }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { preconditionFailure("unexpected /proc/self/statm") }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The smallest heap growth over three rounds of `iterations` calls of `body`.
    static func smallestGrowth(_ body: () -> Void) -> Int {
        var smallest = Int.max
        for _ in 0..<3 {
            let before = heapInUse()
            for _ in 0..<iterations { body() }
            smallest = min(smallest, heapInUse() - before)
        }
        return smallest
    }

    @Test("SPKI DER with a trailing byte is refused without leaking the decoded key")
    func spkiTrailingBytes() {
        let input = Self.spki + [0]
        let growth = Self.smallestGrowth { _ = try? PKey(subjectPublicKeyInfo: input) }
        #expect(growth < Self.allowedGrowth, "heap grew by \(growth) bytes")
    }

    @Test("PEM keys and certificates with trailing DER bytes are refused without leaking", arguments: ["PUBLIC KEY", "CERTIFICATE"])
    func pemTrailingBytes(_ label: String) {
        let der = label == "CERTIFICATE" ? DERWriter.certificate(spki: Self.spki) : Self.spki
        let pem = PEMDocument.encode(label: label, der: der + [0])
        let growth = Self.smallestGrowth { _ = try? JWTKey(pem: pem) }
        #expect(growth < Self.allowedGrowth, "heap grew by \(growth) bytes")
    }

    @Test("a refused key (e = 1) is freed")
    func refusedKeyIsFreed() {
        guard case .rsa(let n, _, _)? = try? PKey(subjectPublicKeyInfo: Self.spki).components(includePrivate: false) else {
            Issue.record("cannot read the modulus")
            return
        }
        let pem = PEMDocument.encode(label: "PUBLIC KEY", der: DERWriter.rsaSPKI(n: n, e: [1]))
        let growth = Self.smallestGrowth { _ = try? JWTKey(pem: pem) }
        #expect(growth < Self.allowedGrowth, "heap grew by \(growth) bytes")
    }
}
#endif
