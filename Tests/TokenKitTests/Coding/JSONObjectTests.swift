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
