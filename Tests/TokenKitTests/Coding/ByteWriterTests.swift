import Testing
@testable import TokenKit

/// The writer the token writer and the CLI's row formatters build output in.
@Suite("ByteWriter")
struct ByteWriterTests {
    /// One operation, applied both to a writer and to an array (the model).
    enum Operation {
        case byte(UInt8), bytes([UInt8]), fixed, text(String), repeating(UInt8, Int), insert(UInt8, Int, Int), bounded([UInt8], Int)

        func apply(to writer: inout ByteWriter) {
            switch self {
            case .byte(let b): writer.append(b)
            case .bytes(let bs): bs.withUnsafeBytes { writer.append(contentsOf: $0) }
            case .fixed: writer.append("{\"fixed\":")
            case .text(let s): writer.append(utf8Of: s)
            case .repeating(let b, let n): writer.append(repeating: b, count: n)
            case .insert(let b, let n, let at): writer.insert(repeating: b, count: n, at: min(at, writer.count))
            case .bounded(let bs, let bound):
                writer.write(atMost: bound) { start in
                    for (i, b) in bs.enumerated() { start[i] = b }
                    return bs.count
                }
            }
        }

        func apply(to model: inout [UInt8]) {
            switch self {
            case .byte(let b): model.append(b)
            case .bytes(let bs): model += bs
            case .fixed: model += Array("{\"fixed\":".utf8)
            case .text(let s): model += Array(s.utf8)
            case .repeating(let b, let n): model += [UInt8](repeating: b, count: max(n, 0))
            case .insert(let b, let n, let at): model.insert(contentsOf: [UInt8](repeating: b, count: max(n, 0)), at: min(at, model.count))
            case .bounded(let bs, _): model += bs
            }
        }
    }

    static func randomOperation(_ rng: inout some RandomNumberGenerator) -> Operation {
        let length = Int.random(in: 0...300, using: &rng)
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return .byte(UInt8.random(in: 0...255, using: &rng))
        case 1: return .bytes(bytes)
        case 2: return .fixed
        case 3: return .text(String(repeating: "é€x", count: length / 6))
        case 4: return .repeating(0x20, Int.random(in: -1...100, using: &rng))
        case 5: return .insert(0x2E, Int.random(in: 0...40, using: &rng), Int.random(in: 0...2_000, using: &rng))
        default: return .bounded(bytes, length + Int.random(in: 0...50, using: &rng))
        }
    }

    @Test("any sequence of appends, inserts and bounded writes gives the bytes an array would hold, across growth")
    func matchesArrayModel() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let operations = (0..<Int.random(in: 1...40, using: &rng)).map { _ in Self.randomOperation(&rng) }
            var model: [UInt8] = []
            for operation in operations { operation.apply(to: &model) }
            // From the stack (small scratch, so most rounds move to the heap), and from the heap.
            var fromScratch: [UInt8] = []
            ByteWriter.withScratch(capacity: 64) { writer in
                for operation in operations { operation.apply(to: &writer) }
                fromScratch = writer.array
            }
            var heap = ByteWriter(capacity: 1)
            for operation in operations { operation.apply(to: &heap) }
            #expect(fromScratch == model, "round \(round)")
            #expect(heap.array == model, "round \(round)")
            #expect(heap.count == model.count)
        }
    }

    @Test("a bounded write may use all of its bound, and nothing before it is disturbed by growth")
    func boundedWriteAtCapacity() {
        ByteWriter.withScratch(capacity: 16) { writer in
            writer.append(repeating: 0x41, count: 15)
            writer.write(atMost: 4_096) { start in
                for i in 0..<4_096 { start[i] = UInt8(truncatingIfNeeded: i) }
                return 4_096
            }
            #expect(writer.count == 15 + 4_096)
            writer.withBytes { bytes in
                #expect(bytes.prefix(15).allSatisfy { $0 == 0x41 })
                #expect(Array(bytes.suffix(4_096)) == (0..<4_096).map { UInt8(truncatingIfNeeded: $0) })
            }
        }
    }

    @Test("fixed text of one scalar is appended as its UTF-8, like longer literals")
    func singleScalarLiterals() {
        var writer = ByteWriter(capacity: 1)
        writer.append("…")
        writer.append("-")
        writer.append("é")
        writer.append("😀")
        writer.append("")
        writer.append("{\"k\":")
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == "…-é😀{\"k\":")
    }

    @Test("an insert at the start shifts everything written, including across a grow")
    func insertAtStart() {
        var writer = ByteWriter(capacity: 16)
        writer.append("0123456789abcdef")
        writer.insert(repeating: 0x20, count: 3, at: 0)
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == "   0123456789abcdef")
    }
}
