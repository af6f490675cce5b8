import Dispatch
import Foundation
internal import CLibPQ
import TokenKitStore

/// A failure reported by libpq: the server's SQLSTATE (when it answered) and a one-line
/// message. Secrets never appear: they travel only as bound parameters, which libpq and the
/// server never echo in errors.
struct PGError: Error, Sendable {
    /// The SQLSTATE, or `nil` when the server did not answer (connection failures).
    let sqlState: String?
    let message: String
    /// Whether the connection is unusable afterwards (lost, refused, shut down).
    let connectionLost: Bool
    /// Whether the failure happened while connecting (nothing was sent).
    var whileConnecting = false
}

/// A bound parameter, sent with its type (text, bytea, int8, float8) so the server never has
/// to guess; `nil` in a parameter list is SQL NULL.
enum PGValue: Sendable {
    case text(String)
    case bytes([UInt8])
    case int64(Int64)
    case double(Double)
}

/// One row of a result, in libpq's binary format; `nil` columns are SQL NULL.
struct PGRow: Sendable {
    let columns: [[UInt8]?]

    func text(_ i: Int) throws(PGError) -> String { String(decoding: try value(i), as: UTF8.self) }
    func bytes(_ i: Int) throws(PGError) -> [UInt8] { try value(i) }
    func int64(_ i: Int) throws(PGError) -> Int64 { Int64(bitPattern: try integer(i, bytes: 8)) }
    func int32(_ i: Int) throws(PGError) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: try integer(i, bytes: 4))) }
    func double(_ i: Int) throws(PGError) -> Double { Double(bitPattern: try integer(i, bytes: 8)) }
    func optionalDouble(_ i: Int) throws(PGError) -> Double? { columns.indices.contains(i) && columns[i] == nil ? nil : try double(i) }

    private func value(_ i: Int) throws(PGError) -> [UInt8] {
        guard columns.indices.contains(i), let bytes = columns[i] else {
            throw PGError(sqlState: nil, message: "unexpected NULL or missing column \(i)", connectionLost: false)
        }
        return bytes
    }

    private func integer(_ i: Int, bytes count: Int) throws(PGError) -> UInt64 {
        let bytes = try value(i)
        guard bytes.count == count else {
            throw PGError(sqlState: nil, message: "column \(i) has \(bytes.count) bytes, expected \(count)", connectionLost: false)
        }
        return bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}

/// One libpq connection (the only code that touches libpq pointers).
///
/// Not thread-safe by itself: its owner runs every call on one serial queue (blocking work,
/// never on Swift's cooperative pool). ``cancel()`` alone may be called from any thread.
/// The connection is closed (`PQfinish`) by ``close()`` or when deallocated.
final class PGConnection: @unchecked Sendable {
    // @unchecked Sendable: `connection` is used only on the owner's serial queue, except
    // through `canceller`, whose PQcancel is documented as thread-safe.
    private var connection: OpaquePointer?
    private let canceller: OpaquePointer?

    private init(connection: OpaquePointer) {
        self.connection = connection
        self.canceller = PQgetCancel(connection)
    }

    deinit {
        close()
        if let canceller { PQfreeCancel(canceller) }
    }

    /// Connects (blocking) to `endpoint`; fails after about `timeout` seconds.
    static func connect(_ endpoint: PostgresEndpoint, timeout seconds: Int) throws(PGError) -> PGConnection {
        var parameters: [(String, String)] = [
            ("host", endpoint.host), ("port", String(endpoint.port)), ("user", endpoint.username),
            ("dbname", endpoint.database), ("sslmode", endpoint.tls.rawValue),
            ("connect_timeout", String(max(2, seconds))), ("application_name", "tokenkit"),
            ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", String(max(2, seconds) * 1000)),
            ("options", "-c statement_timeout=\(max(2, seconds) * 1000)"),
        ]
        if let password = endpoint.password { parameters.append(("password", password)) }
        let keys = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keys.forEach { free($0) }
            // The password's copy is wiped before it is freed.
            values.forEach { if let value = $0 { memset(value, 0, strlen(value)); free(value) } }
        }
        let keyPointers = keys.map { UnsafePointer<CChar>($0) } + [nil]
        let valuePointers = values.map { UnsafePointer<CChar>($0) } + [nil]
        guard let connection = PQconnectdbParams(keyPointers, valuePointers, 0) else {
            throw PGError(sqlState: nil, message: "out of memory", connectionLost: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.firstLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw PGError(sqlState: nil, message: message, connectionLost: true)
        }
        return PGConnection(connection: connection)
    }

    /// Whether the connection can still be used.
    var isUsable: Bool {
        guard let connection else { return false }
        return PQstatus(connection) == CONNECTION_OK
    }

    /// Runs one statement (blocking) with typed parameters and returns its rows (binary format).
    @discardableResult
    func query(_ sql: String, _ parameters: [PGValue?] = []) throws(PGError) -> [PGRow] {
        guard let connection else { throw PGError(sqlState: nil, message: "the connection is closed", connectionLost: true) }
        var types: [UInt32] = []
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { buffers.forEach { $0?.deallocate() } }
        for parameter in parameters {
            let (type, bytes, format): (UInt32, [UInt8]?, Int32)
            switch parameter {
            case nil: (type, bytes, format) = (0, nil, 0)
            case .text(let text)?: (type, bytes, format) = (25, Array(text.utf8), 1)
            case .bytes(let data)?: (type, bytes, format) = (17, data, 1)
            case .int64(let value)?: (type, bytes, format) = (20, withUnsafeBytes(of: value.bigEndian) { Array($0) }, 1)
            case .double(let value)?: (type, bytes, format) = (701, withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) }, 1)
            }
            types.append(type)
            formats.append(format)
            if let bytes {
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count) }
                }
                buffers.append(buffer)
                lengths.append(Int32(bytes.count))
            } else {
                buffers.append(nil)
                lengths.append(0)
            }
        }
        let values = buffers.map { UnsafePointer<CChar>($0) }
        guard let result = PQexecParams(connection, sql, Int32(parameters.count), types, values, lengths, formats, 1) else {
            throw PGError(sqlState: nil, message: Self.firstLine(PQerrorMessage(connection)), connectionLost: !isUsable)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let message = primary ?? Self.firstLine(PQerrorMessage(connection))
            let lost = !isUsable || (state.map { $0.hasPrefix("57P") || $0.hasPrefix("08") } ?? true)
            throw PGError(sqlState: state, message: String(message.prefix(300)), connectionLost: lost)
        }
        var rows: [PGRow] = []
        let columnCount = PQnfields(result)
        for row in 0..<PQntuples(result) {
            var columns: [[UInt8]?] = []
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    columns.append(nil)
                } else {
                    let length = Int(PQgetlength(result, row, column))
                    let pointer = PQgetvalue(result, row, column)
                    columns.append(pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? [])
                }
            }
            rows.append(PGRow(columns: columns))
        }
        return rows
    }

    /// Asks the server to cancel the statement in progress (thread-safe; best effort).
    func cancel() {
        guard let canceller else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = PQcancel(canceller, &buffer, Int32(buffer.count))
    }

    /// Closes the connection (the server ends the session, releasing its advisory locks).
    func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    private static func firstLine(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        let line = String(cString: text).split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown error"
        return String(line.trimmingCharacters(in: .whitespaces).prefix(300))
    }
}
