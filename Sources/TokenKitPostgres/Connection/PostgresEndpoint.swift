import Foundation
internal import TokenKitPrimitives
import TokenKitStore

/// Where a PostgreSQL server is and how to log in: host (or Unix socket directory), port,
/// user, database, TLS mode and password.
///
/// Guarantees: `description` never shows the password; a URL that carries a password is
/// refused (URLs end up in argv, shell history and logs), so the password always comes from
/// a separate source such as `PGPASSWORD` or a file. Does not: read the environment itself
/// (the caller passes the password in), or verify anything until a connection is made.
public struct PostgresEndpoint: Sendable, CustomStringConvertible {
    /// Whether and how the connection uses TLS: libpq's `sslmode`, mapped to postgres-nio's
    /// TLS configuration (swift-nio-ssl).
    public struct TLSMode: Hashable, Sendable, CustomStringConvertible {
        let rawValue: String
        /// Plain TCP or a Unix socket (`sslmode=disable`, the default).
        public static let disable = TLSMode(rawValue: "disable")
        /// TLS if the server offers it, else plain (`sslmode=prefer`: no protection against an
        /// active attacker).
        public static let prefer = TLSMode(rawValue: "prefer")
        /// TLS required, server certificate not verified (`sslmode=require`).
        public static let require = TLSMode(rawValue: "require")
        /// TLS, certificate chain verified against ``PostgresEndpoint/rootCertificate`` or the
        /// system's trust store, host name not checked (`sslmode=verify-ca`).
        public static let verifyCA = TLSMode(rawValue: "verify-ca")
        /// TLS, certificate and host name verified (`sslmode=verify-full`, recommended off-host).
        public static let verifyFull = TLSMode(rawValue: "verify-full")
        /// The `sslmode` value.
        public var description: String { rawValue }
    }

    /// The host name or IP address (an IPv6 literal without its URL brackets, e.g. `::1`), or an
    /// absolute directory holding the server's Unix socket.
    public var host: String
    /// The TCP port (also names the socket file `.s.PGSQL.PORT`).
    public var port: Int
    /// The user to log in as.
    public var username: String
    /// The database holding the credential table.
    public var database: String
    /// Whether to use TLS.
    public var tls: TLSMode
    /// The PEM file of the certificate authorities that sign the server's certificate
    /// (`sslrootcert=/path`), or `"system"` / `nil` for the system's trust store. Used by
    /// `verify-ca` and `verify-full`, and by `require` (which then verifies the chain, as libpq does).
    public var rootCertificate: String?
    /// The password; never part of ``description``.
    var password: String?

    /// An endpoint from its parts; `password` is `nil` when the server needs none.
    public init(
        host: String, port: Int = 5432, username: String, password: String?, database: String, tls: TLSMode = .disable,
        rootCertificate: String? = nil
    ) {
        self.rootCertificate = rootCertificate
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Parses `postgres://USER@HOST:PORT/DATABASE?sslmode=MODE&sslrootcert=/path` (also
    /// `postgresql://`; an IPv6 literal host in brackets, `postgres://u@[::1]:5432/db`; a Unix
    /// socket directory with `?host=/path`). The password comes from `password`.
    ///
    /// Strict: any other parameter, a repeated parameter, an invalid percent-encoding, a port
    /// outside 1…65535, control characters or more than 2048 bytes are refused rather than
    /// ignored or defaulted.
    ///
    /// - Throws: ``TokenStoreError/Code/backend`` naming what is wrong (never echoing a
    ///   password): another scheme, a password inside the URL, a missing user, an unknown
    ///   `sslmode`, a bad port.
    public init(url text: String, password: String?) throws(TokenStoreError) {
        guard text.utf8.count <= 2048 else { throw .backend("the database URL is longer than 2048 bytes") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .backend("the database URL contains control characters")
        }
        guard let components = URLComponents(string: text),
              let scheme = components.scheme,  // ASCII case-insensitive (RFC 3986 §3.1), no Unicode folding
              scheme.isASCIICaseInsensitiveEqual(to: "postgres") || scheme.isASCIICaseInsensitiveEqual(to: "postgresql")
        else {
            throw .backend("the database URL must look like postgres://USER@HOST:PORT/DATABASE")
        }
        // Every % starts two hex digits, and what they encode is UTF-8 (Foundation on Linux
        // passes "%zz" through as text instead of refusing it).
        let bytes = Array(text.utf8)
        let hex = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) }
        let wellFormed = bytes.indices.allSatisfy { i in
            bytes[i] != UInt8(ascii: "%") || (i + 2 < bytes.count && hex(bytes[i + 1]) && hex(bytes[i + 2]))
        }
        let decodable = [components.percentEncodedUser, components.percentEncodedHost, components.percentEncodedPath]
            .allSatisfy { $0.map { $0.removingPercentEncoding != nil } ?? true }
        guard wellFormed, decodable else { throw .backend("the database URL has an invalid percent-encoding") }
        guard components.password == nil else {
            throw .backend("the database URL must not contain a password: use PGPASSWORD or a password file")
        }
        guard let user = components.user, !user.isEmpty else {
            throw .backend("the database URL names no user (postgres://USER@HOST/DATABASE)")
        }
        var host = components.host ?? ""
        // An IPv6 literal: URLComponents may keep its brackets; the address is what is inside.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.contains(":") {
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw .backend("the database URL's IPv6 host is not a plain address")
            }
        }
        var tls = TLSMode.disable
        var rootCertificate: String?
        var seen: Set<String> = []
        for item in components.queryItems ?? [] {
            guard seen.insert(item.name).inserted else {
                throw .backend("the parameter \"\(item.name.prefix(32))\" appears twice in the database URL")
            }
            switch (item.name, item.value ?? "") {
            case ("sslmode", "disable"): tls = .disable
            case ("sslmode", "prefer"): tls = .prefer
            case ("sslmode", "require"): tls = .require
            case ("sslmode", "verify-ca"): tls = .verifyCA
            case ("sslmode", "verify-full"): tls = .verifyFull
            case ("sslmode", let other): throw .backend("unknown sslmode \"\(other.prefix(32))\" in the database URL")
            case ("sslrootcert", let path) where path.hasPrefix("/") || path == "system": rootCertificate = path
            case ("sslrootcert", _): throw .backend("sslrootcert in the database URL must be an absolute file path or \"system\"")
            case ("host", let directory) where directory.hasPrefix("/"): host = directory
            case ("host", _): throw .backend("host= in the database URL must be an absolute socket directory")
            default: throw .backend("unsupported parameter \"\(item.name.prefix(32))\" in the database URL")
            }
        }
        guard !host.isEmpty else { throw .backend("the database URL names no host") }
        if rootCertificate != nil && (tls == .disable || tls == .prefer) {
            throw .backend("sslrootcert needs sslmode=require, verify-ca or verify-full in the database URL")
        }
        var port = 5432
        if let range = components.rangeOfPort {
            // Read the digits themselves: URLComponents.port is nil for an overflowing number.
            guard let value = Int(text[range]), (1...65535).contains(value) else {
                throw .backend("the database URL's port must be 1 to 65535")
            }
            port = value
        }
        var path = components.path
        if path.hasPrefix("/") { path.removeFirst() }
        self.init(
            host: host, port: port, username: user, password: password,
            database: path.isEmpty ? user : path, tls: tls, rootCertificate: rootCertificate)
    }

    /// Whether ``host`` is a Unix socket directory.
    var isUnixSocket: Bool { host.hasPrefix("/") }

    /// `postgres://USER@HOST:PORT/DATABASE` (an IPv6 host in brackets): never the password
    /// (nor the TLS settings).
    public var description: String {
        if isUnixSocket { return "postgres://\(username)@/\(database)?host=\(host) (port \(port))" }
        return "postgres://\(username)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }
}
