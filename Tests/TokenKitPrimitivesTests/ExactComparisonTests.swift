import Testing
import TokenKitPrimitives

/// The one exact comparison (issue 23 item 2): byte for byte, never Swift's canonical
/// equivalence, for strings, set members and dictionary keys.
@Suite("Exact comparison")
struct ExactComparisonTests {
    static let kelvin = "\u{212A}"
    static let precomposed = "\u{00E9}"
    static let decomposed = "e\u{0301}"

    @Test("the premise: Swift's String == and Set<String> treat canonically equivalent strings as one")
    func premise() {
        #expect("\(Self.kelvin)id" == "Kid")
        #expect(Set(["caf\(Self.precomposed)", "caf\(Self.decomposed)"]).count == 1)
    }

    @Test("isByteIdentical: KELVIN SIGN is not K, a decomposed é is not the precomposed one")
    func strings() {
        #expect(!"\(Self.kelvin)id".isByteIdentical(to: "Kid"))
        #expect(!"caf\(Self.decomposed)".isByteIdentical(to: "caf\(Self.precomposed)"))
        #expect("caf\(Self.precomposed)".isByteIdentical(to: "caf\u{E9}"))
        #expect("".isByteIdentical(to: ""))
        #expect(!"a".isByteIdentical(to: ""))
        // Lengths above and below the 8-byte stride, differing in the tail and in the body.
        let long = String(repeating: "https://issuer.example/", count: 3)
        #expect(long.isByteIdentical(to: String(repeating: "https://issuer.example/", count: 3)))
        #expect(!long.isByteIdentical(to: String(long.dropLast()) + "?"))
        #expect(!long.isByteIdentical(to: "H" + long.dropFirst()))
        #expect(["Kid", "x"].containsByteIdentical("Kid"))
        #expect(!["Kid", "x"].containsByteIdentical("\(Self.kelvin)id"))
    }

    @Test("ExactKey: canonically equivalent keys are distinct set members and dictionary keys")
    func keys() {
        let set: Set<ExactKey> = [ExactKey("\(Self.kelvin)id"), "Kid", ExactKey("caf\(Self.decomposed)"), ExactKey("caf\(Self.precomposed)")]
        #expect(set.count == 4)
        let dictionary: [ExactKey: Int] = [ExactKey("\(Self.kelvin)"): 1, "K": 2]
        #expect(dictionary["K"] == 2)
        #expect(dictionary[ExactKey(Self.kelvin)] == 1)
        #expect(dictionary[ExactKey("k")] == nil)
    }

    @Test("ExactKey in a switch matches only the exact bytes")
    func switching() {
        func kind(_ text: String) -> String {
            switch ExactKey(text) {
            case "OKP": "okp"
            default: "other"
            }
        }
        #expect(kind("OKP") == "okp")
        #expect(kind("O\(Self.kelvin)P") == "other")
    }

    @Test("asciiLowercased folds ASCII letters only: KELVIN SIGN stays, where lowercased() makes it k")
    func asciiLowercase() {
        #expect("DPoP".asciiLowercased == "dpop")
        #expect(Self.kelvin.lowercased() == "k")
        #expect(Self.kelvin.asciiLowercased.isByteIdentical(to: Self.kelvin))
        #expect("NONE".asciiLowercased.isByteIdentical(to: "none"))
    }

    @Test("bytesEqual compares every byte, in 8-byte words and in the tail")
    func rawBytes() {
        for count in [0, 1, 7, 8, 9, 16, 31] {
            let a = (0..<count).map { UInt8($0 & 0xFF) }
            for flip in 0..<count {
                var b = a
                b[flip] ^= 0x01
                let equal = a.withUnsafeBytes { x in b.withUnsafeBytes { y in bytesEqual(x.baseAddress!, y.baseAddress, count: count) } }
                #expect(!equal, "count \(count), flipped \(flip)")
            }
            let same = a.withUnsafeBytes { x in a.withUnsafeBytes { y in x.baseAddress.map { bytesEqual($0, y.baseAddress, count: count) } ?? true } }
            #expect(same)
        }
    }
}
