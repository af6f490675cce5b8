import Foundation
import Hummingbird
import NIOCore

/// A JSON value as the apps read and write it: only what their APIs use.
public enum JSONField: Sendable, Equatable, Decodable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case object([String: JSONField])
    case array([JSONField])

    /// Decodes any JSON value, keeping booleans, whole numbers and fractions apart.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONField].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONField].self))
        }
    }

    /// The Foundation object for `JSONSerialization`.
    var foundationValue: Any {
        switch self {
        case .string(let s): return s
        case .int(let i): return i
        case .double(let d): return d
        case .bool(let b): return b
        case .null: return NSNull()
        case .object(let o): return o.mapValues { $0.foundationValue }
        case .array(let a): return a.map { $0.foundationValue }
        }
    }
}

/// Reading JSON request bodies strictly and writing JSON responses.
///
/// Guarantees: a body that is not a JSON object (including an empty one, invalid UTF-8,
/// or one over ``maxBytes``) is a 400 ``APIError``; field accessors name the missing or
/// mistyped field. Does not echo any field's value back in an error.
public struct JSONBody: Sendable {
    /// The largest request body read (64 KiB).
    public static let maxBytes = 64 * 1024
    private let object: [String: JSONField]

    private init(object: [String: JSONField]) { self.object = object }

    /// Reads and parses the request's body as one JSON object.
    public static func read(_ request: Request) async throws(APIError) -> JSONBody {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBytes)
        } catch {
            throw .badRequest("the request body is larger than \(maxBytes) bytes")
        }
        let data = Data(buffer.readableBytesView)
        guard !data.isEmpty else { throw .badRequest("the request body must be a JSON object") }
        guard let parsed = try? JSONDecoder().decode(JSONField.self, from: data), case .object(let object) = parsed else {
            throw .badRequest("the request body must be a JSON object")
        }
        return JSONBody(object: object)
    }

    /// The non-empty string field `name`; a 400 when it is missing, empty or not a string.
    public func string(_ name: String) throws(APIError) -> String {
        guard let value = object[name] else { throw .badRequest("\(name) is required") }
        guard case .string(let text) = value else { throw .badRequest("\(name) must be a string") }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .badRequest("\(name) is required") }
        return text
    }

    /// The integer field `name`; a 400 when it is missing or not a whole number.
    public func int(_ name: String) throws(APIError) -> Int {
        guard let value = object[name] else { throw .badRequest("\(name) is required") }
        guard case .int(let int) = value else { throw .badRequest("\(name) must be a whole number") }
        return int
    }

    /// A JSON response with `status` and `value` as its body.
    public static func response(status: Int, _ value: [String: JSONField]) -> Response {
        encode(status: status, JSONField.object(value))
    }

    /// A JSON response with `status` and an array body.
    public static func response(status: Int, array: [JSONField]) -> Response {
        encode(status: status, JSONField.array(array))
    }

    /// `value` as compact JSON text with sorted keys.
    public static func text(_ value: [String: JSONField]) -> String {
        String(decoding: data(JSONField.object(value)), as: UTF8.self)
    }

    private static func encode(status: Int, _ value: JSONField) -> Response {
        Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data(value))))
    }

    private static func data(_ value: JSONField) -> Data {
        // Strings, numbers, booleans, arrays and objects are always serializable.
        (try? JSONSerialization.data(withJSONObject: value.foundationValue, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }
}
