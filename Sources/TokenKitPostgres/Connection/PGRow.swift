#if Postgres
import NIOCore
import PostgresNIO

/// A bound parameter, sent with its type (text, bytea, int8, float8) so the server never has
/// to guess; `nil` in a parameter list is SQL NULL.
enum PGValue: Sendable {
    case text(String)
    case bytes([UInt8])
    case int64(Int64)
    case double(Double)

    /// `parameters` as postgres-nio bindings, in order.
    static func bindings(_ parameters: [PGValue?]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: parameters.count)
        for parameter in parameters {
            switch parameter {
            case nil: bindings.appendNull()
            case .text(let text)?: bindings.append(text)
            case .bytes(let bytes)?: bindings.append(ByteBuffer(bytes: bytes))
            case .int64(let value)?: bindings.append(value)
            case .double(let value)?: bindings.append(value)
            }
        }
        return bindings
    }
}

/// One row of a result in PostgreSQL's binary format (postgres-nio asks for binary results);
/// `nil` columns are SQL NULL.
struct PGRow: Sendable {
    let columns: [[UInt8]?]

    init(_ row: PostgresRow) {
        columns = row.map { cell in cell.bytes.map { Array($0.readableBytesView) } }
    }

    func text(_ i: Int) throws(PGError) -> String { String(decoding: try value(i), as: UTF8.self) }
    func bytes(_ i: Int) throws(PGError) -> [UInt8] { try value(i) }
    func int64(_ i: Int) throws(PGError) -> Int64 { Int64(bitPattern: try integer(i, bytes: 8)) }
    func int32(_ i: Int) throws(PGError) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: try integer(i, bytes: 4))) }
    func double(_ i: Int) throws(PGError) -> Double { Double(bitPattern: try integer(i, bytes: 8)) }
    func optionalDouble(_ i: Int) throws(PGError) -> Double? { columns.indices.contains(i) && columns[i] == nil ? nil : try double(i) }
    func optionalBytes(_ i: Int) throws(PGError) -> [UInt8]? { columns.indices.contains(i) && columns[i] == nil ? nil : try bytes(i) }

    private func value(_ i: Int) throws(PGError) -> [UInt8] {
        guard columns.indices.contains(i), let bytes = columns[i] else {
            throw PGError(.protocolViolation, message: "unexpected NULL or missing column \(i)")
        }
        return bytes
    }

    private func integer(_ i: Int, bytes count: Int) throws(PGError) -> UInt64 {
        let bytes = try value(i)
        guard bytes.count == count else {
            throw PGError(.protocolViolation, message: "column \(i) has \(bytes.count) bytes, expected \(count)")
        }
        return bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
#endif
