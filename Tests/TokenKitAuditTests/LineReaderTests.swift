import Foundation
import Testing
@testable import TokenKitAudit
import TokenKitTestSupport

@Suite("Reading one token a line")
struct LineReaderTests {
    /// Writes `bytes` to a temporary file and reads every batch from it.
    func read(_ bytes: [UInt8], bufferSize: Int = 1 << 16, batch: Int = 3) throws -> [(line: Int, text: String?, unreadable: String?)] {
        let directory = try PrivateTemporaryDirectory(prefix: "audit")
        defer { withExtendedLifetime(directory) {} }
        let path = try directory.write("tokens.txt", bytes: bytes)
        let reader = try TokenLineReader(path: path, bufferSize: bufferSize)
        #expect(reader.source == path)
        var out: [(Int, String?, String?)] = []
        while let next = try reader.nextBatch(maxTokens: batch) {
            #expect(next.count <= batch)
            for entry in next.entries {
                let text = String(validating: next.bytes[entry.offset..<(entry.offset + entry.count)], as: UTF8.self)
                out.append((entry.line, text, entry.unreadable))
            }
        }
        return out
    }

    @Test func skipsBlankAndCommentLinesButCountsThem() throws {
        let lines = try read(Array("# header\n\naaa\n   \n  # indented comment\nbbb\n\t\nccc".utf8))
        #expect(lines.map(\.line) == [3, 6, 8])
        #expect(lines.map(\.text) == ["aaa", "bbb", "ccc"])
    }

    @Test func stripsCRLFAndSurroundingBlanks() throws {
        let lines = try read(Array("aaa\r\n  bbb \r\n\r\nccc\r\n".utf8))
        #expect(lines.map(\.text) == ["aaa", "bbb", "ccc"])
        #expect(lines.map(\.line) == [1, 2, 4])
    }

    @Test func keepsInvalidUTF8BytesForTheAuditorToReport() throws {
        let lines = try read([0x61, 0xFF, 0x62, 0x0A, 0x63, 0x0A])
        #expect(lines.count == 2)
        #expect(lines[0].text == nil, "the raw bytes are passed on, invalid UTF-8 and all")
        #expect(lines[1].text == "c")
    }

    @Test func emptyInput() throws {
        #expect(try read([]).isEmpty)
        #expect(try read(Array("\n\n# only comments\n".utf8)).isEmpty)
    }

    @Test func lineLongerThanTheBufferIsUnreadableAndReadingGoesOn() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)
        let lines = try read(Array("aaa\n".utf8) + long + Array("\nbbb\n".utf8), bufferSize: 1 << 16)
        #expect(lines.map(\.line) == [1, 2, 3])
        #expect(lines[1].unreadable != nil)
        #expect(lines[2].text == "bbb")
    }

    @Test func linesSpanningBufferRefills() throws {
        var text = ""
        for i in 0..<20_000 { text += "token-\(i)\n" }
        let lines = try read(Array(text.utf8), bufferSize: 1 << 16, batch: 1000)
        #expect(lines.count == 20_000)
        #expect(lines.last?.text == "token-19999")
        #expect(lines.last?.line == 20_000)
    }

    @Test func unreadableFileThrows() {
        #expect(throws: AuditInputError.self) { try TokenLineReader(path: "/nonexistent/tokens.txt") }
        #expect(throws: AuditInputError.self) { try TokenLineReader(path: "/tmp") }
    }
}
