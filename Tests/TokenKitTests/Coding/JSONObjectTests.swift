import Testing
@testable import TokenKit

/// `JSONObject` keeps its members in document order with names compared by their bytes,
/// scanning small objects and indexing large ones: both must answer the same.
@Suite("JSONObject: order, exact names, small and large")
struct JSONObjectTests {
    /// An object of `count` members named m0, m1, … with values 0, 1, ….
    static func numbered(_ count: Int) -> JSONObject {
        JSONObject((0..<count).map { ("m\($0)", .number(JSONNumber(Int64($0)))) })
    }

    @Test("members come back in the order they were set, whatever the size", arguments: [0, 1, 16, 17, 200])
    func documentOrder(count: Int) {
        let object = Self.numbered(count)
        #expect(object.keys == (0..<count).map { "m\($0)" })
        var seen: [String] = []
        for (key, value) in object {
            #expect(value.numberValue?.int64Value == Int64(seen.count))
            seen.append(key)
        }
        #expect(seen == object.keys)
        #expect(object.count == count)
    }

    @Test("lookup, replacement and removal agree below and above the index threshold", arguments: [5, 16, 17, 40])
    func lookupReplaceRemove(count: Int) {
        var object = Self.numbered(count)
        for i in 0..<count { #expect(object["m\(i)"]?.numberValue?.int64Value == Int64(i)) }
        #expect(object["m\(count)"] == nil)

        object["m0"] = .string("replaced")  // replacing keeps the position
        #expect(object.keys.first == "m0" && object["m0"] == .string("replaced") && object.count == count)

        object["m1"] = nil  // removing shifts the later members, which stay reachable
        #expect(object["m1"] == nil && object.count == count - 1)
        for i in 2..<count { #expect(object["m\(i)"]?.numberValue?.int64Value == Int64(i)) }
        object["m1"] = .bool(true)  // re-added at the end
        #expect(object.keys.last == "m1" && object["m1"] == .bool(true))
    }

    @Test("names are compared by bytes in small and indexed objects alike", arguments: [1, 30])
    func exactNames(padding: Int) {
        var object = Self.numbered(padding)
        object["Kid"] = .string("ascii")
        object["\u{212A}id"] = .string("kelvin")  // canonically equivalent to "Kid", other bytes
        #expect(object.count == padding + 2)
        #expect(object["Kid"] == .string("ascii"))
        #expect(object["\u{212A}id"] == .string("kelvin"))
        object["Kid"] = nil
        #expect(object["\u{212A}id"] == .string("kelvin") && object["Kid"] == nil)
    }

    @Test("equality and hashing ignore member order, and are by exact names")
    func equalityAndHash() {
        let a = JSONObject([("x", .number(JSONNumber(1))), ("y", .string("two"))])
        let b = JSONObject([("y", .string("two")), ("x", .number(JSONNumber(1)))])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a != JSONObject([("x", .number(JSONNumber(1)))]))
        #expect(a != JSONObject([("x", .number(JSONNumber(1))), ("y", .string("three"))]))
        #expect(JSONObject([("Kid", .null)]) != JSONObject([("\u{212A}id", .null)]))
        #expect(Self.numbered(40) == JSONObject(Self.numbered(40).reversed().map { ($0.key, $0.value) }))
    }

    @Test("a parsed object keeps document order and refuses a duplicate name, small or large")
    func parsedObjects() throws {
        let members = (0..<30).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let parsed = try StrictJSONParser.parseObject(Array("{\(members)}".utf8), maxDepth: 4)
        #expect(parsed.keys == (0..<30).map { "k\($0)" })
        #expect(parsed["k29"]?.numberValue?.int64Value == 29)
        #expect(throws: JSONSyntaxError.self) { try StrictJSONParser.parseObject(Array(#"{"a":1,"a":2}"#.utf8), maxDepth: 4) }
        #expect(throws: JSONSyntaxError.self) { try StrictJSONParser.parseObject(Array("{\(members),\"k3\":0}".utf8), maxDepth: 4) }
    }

    @Test("a signed object is written in document order")
    func writtenInOrder() {
        let object = JSONObject([("z", .number(JSONNumber(1))), ("a", .string("x")), ("m", .null)])
        #expect(JSONWriter.string(.object(object)) == #"{"z":1,"a":"x","m":null}"#)
    }
}

/// Required registered claims are found through the view's claim slots, other required names
/// by comparing member names: both ways must give the same answer.
@Suite("Required claims: registered and other names")
struct RequiredClaimNamesTests {
    static func verify(_ payload: String, required: IdentifierSet) throws -> VerifiedJWT {
        let options = ValidationOptions(requiredClaims: required, clock: FixedClock(unixTime: TokenForge.now))
        return try JWTVerifier(key: try TokenForge.key(), options: options).verify(TokenForge.token(header: #"{"alg":"HS256"}"#, payload: payload))
    }

    @Test("a required registered claim counts at the top level only, under its exact name, escaped or not")
    func registeredNames() throws {
        #expect(try Self.verify(#"{"jti":"a","sub":"b"}"#, required: ["jti", "sub"]).claims["jti"] != nil)
        #expect(try Self.verify(#"{"\u006Ati":"a"}"#, required: ["jti"]).claims["jti"] != nil)
        expectJWTError(.missingClaim) { try Self.verify(#"{"x":{"jti":"a"}}"#, required: ["jti"]) }
        expectJWTError(.missingClaim) { try Self.verify(#"{"JTI":"a"}"#, required: ["jti"]) }
        expectJWTError(.missingClaim) { try Self.verify(#"{"jti":"a"}"#, required: ["jti", "sub"]) }
    }

    @Test("registered and other required names together")
    func mixedNames() throws {
        #expect(try Self.verify(#"{"sub":"b","tenant":"t","\u0072ole":"r"}"#, required: ["sub", "tenant", "role"]).claims["tenant"] != nil)
        expectJWTError(.missingClaim) { try Self.verify(#"{"sub":"b","role":"r"}"#, required: ["sub", "tenant", "role"]) }
        expectJWTError(.missingClaim) { try Self.verify(#"{"tenant":"t","role":"r"}"#, required: ["sub", "tenant", "role"]) }
    }

    @Test("more than 64 required names, registered ones among them")
    func manyNames() throws {
        let names = (0..<70).map { "c\($0)" }
        let all = names.map { #""\#($0)":1"# }.joined(separator: ",")
        #expect(try Self.verify("{\(all),\"iat\":\(Int(TokenForge.now))}", required: IdentifierSet(names + ["iat"])).claims.raw.count == 71)
        expectJWTError(.missingClaim) { try Self.verify("{\(all)}", required: IdentifierSet(names + ["iat"])) }
        let missingLast = names.dropLast().map { #""\#($0)":1"# }.joined(separator: ",")
        expectJWTError(.missingClaim) { try Self.verify("{\(missingLast),\"iat\":1}", required: IdentifierSet(names + ["iat"])) }
    }
}

/// The package's one JSON string escaper, as the token writer and the CLI use it.
@Suite("JSON string escaping")
struct JSONStringEscapingTests {
    static func escaped(_ value: String, escapingDelete: Bool = false) -> String {
        var out = ByteWriter(capacity: 1)  // the smallest: every escape also exercises growth
        JSONStringEscaping.append(value, escapingDelete: escapingDelete, to: &out)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test("quote, backslash and every control character are escaped; plain runs and non-ASCII are copied")
    func escapes() throws {
        #expect(Self.escaped("plain text") == #""plain text""#)
        #expect(Self.escaped("a\"b\\c\nd\re\tf") == #""a\"b\\c\nd\re\tf""#)
        #expect(Self.escaped("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(Self.escaped("é\u{202E}x") == "\"é\u{202E}x\"")
        #expect(Self.escaped("") == #""""#)
        // Every control character round-trips through the package's parser.
        let all = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        let parsed = try StrictJSONParser.parse(Array(Self.escaped(all).utf8), maxDepth: 1)
        #expect(parsed == .string(all))
    }

    @Test("DEL is escaped only when asked: never in what TokenKit signs")
    func delete() {
        #expect(Self.escaped("a\u{7F}b") == "\"a\u{7F}b\"")
        #expect(Self.escaped("a\u{7F}b", escapingDelete: true) == #""a\u007fb""#)
        #expect(JSONWriter.string(.string("\u{7F}")) == "\"\u{7F}\"")
    }

    /// The escaper's rule written one byte at a time, as RFC 8259 §7 states it.
    static func reference(_ bytes: [UInt8], escapingDelete: Bool) -> String {
        var out: [UInt8] = [0x22]
        for byte in bytes {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x00..<0x20: out += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            case 0x7F where escapingDelete: out += Array(#"\u007f"#.utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("each byte that needs an escape is found wherever it falls in the 8-byte words the scan reads")
    func escapesAtEveryOffset() {
        // Plain ASCII around one special byte, at every offset of strings up to 3 words long,
        // with the bytes the word test must not flag (0x20, 0x7E, 0x21, 0x5B, 0x5D) as neighbours.
        let specials: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x22, 0x5C, 0x7F]
        for length in 1...24 {
            for offset in 0..<length {
                for special in specials {
                    var bytes = (0..<length).map { [0x20, 0x7E, 0x21, 0x5B, 0x5D, 0x61][$0 % 6] as UInt8 }
                    bytes[offset] = special
                    let text = String(decoding: bytes, as: UTF8.self)
                    for escapingDelete in [false, true] {
                        #expect(Self.escaped(text, escapingDelete: escapingDelete) == Self.reference(bytes, escapingDelete: escapingDelete),
                                "length \(length), byte 0x\(String(special, radix: 16)) at \(offset)")
                    }
                }
            }
        }
        // Non-ASCII UTF-8 (bytes 0x80-0xFF) next to specials is copied, never flagged.
        let mixed = "é\"€\u{1}😀\\ü\u{7F}x" + String(repeating: "ß", count: 9) + "\n"
        #expect(Self.escaped(mixed) == Self.reference(Array(mixed.utf8), escapingDelete: false))
        #expect(Self.escaped(mixed, escapingDelete: true) == Self.reference(Array(mixed.utf8), escapingDelete: true))
    }
}
