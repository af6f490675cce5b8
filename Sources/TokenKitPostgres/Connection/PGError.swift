#if Postgres
import Foundation
import NIOCore
import NIOSSL
import PostgresNIO

/// A failure talking to PostgreSQL, reduced to what the store's messages need: the server's
/// SQLSTATE (when it answered), a one-line message, and what kind of failure it was.
///
/// Built from postgres-nio's `PSQLError` by reading only the server's SQLSTATE and primary
/// message and the transport error's own text; never `String(reflecting:)` of a `PSQLError`,
/// which can show the statement and its bound values. Secrets travel only as bound values,
/// and the password never appears in any of these texts.
struct PGError: Error, Sendable {
    /// What went wrong, beyond the SQLSTATE.
    enum Kind: Sendable {
        /// The server answered with an error (see ``PGError/sqlState``).
        case server
        /// The server refused the login (wrong password, unknown user, no password given).
        case loginRefused
        /// The connection is unusable (refused, reset, closed by the server, TLS failure).
        case connectionLost
        /// The client-side bound passed; the connection was closed.
        case timedOut
        /// A reply the client could not use (unexpected NULL, wrong width).
        case protocolViolation
    }

    let kind: Kind
    /// The SQLSTATE, or `nil` when the server did not answer.
    let sqlState: String?
    let message: String
    /// Whether the failure happened while connecting (no statement was sent).
    var whileConnecting = false

    init(_ kind: Kind, sqlState: String? = nil, message: String, whileConnecting: Bool = false) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = String(Self.firstLine(message).prefix(300))
        self.whileConnecting = whileConnecting
    }

    /// Whether the connection must be dropped (and the next call reconnect).
    var connectionLost: Bool {
        switch kind {
        case .connectionLost, .timedOut, .loginRefused: return true
        case .protocolViolation: return false
        case .server: return sqlState.map { $0.hasPrefix("57P") || $0.hasPrefix("08") } ?? false
        }
    }

    /// Classifies any error thrown by postgres-nio or SwiftNIO.
    init(_ error: any Error, whileConnecting: Bool) {
        if let known = error as? PGError {
            self = known
            self.whileConnecting = self.whileConnecting || whileConnecting
            return
        }
        guard let psql = error as? PSQLError else {
            self.init(.connectionLost, message: Self.describe(error), whileConnecting: whileConnecting)
            return
        }
        switch psql.code {
        case .server:
            let state = psql.serverInfo?[.sqlState]
            let message = psql.serverInfo?[.message] ?? "the server reported an error"
            let login = state.map { $0 == "28P01" || $0 == "28000" } ?? false
            self.init(login ? .loginRefused : .server, sqlState: state, message: message, whileConnecting: whileConnecting)
        case .authMechanismRequiresPassword:
            self.init(.loginRefused, message: "the server asks for a password and none was given (PGPASSWORD or a password file)", whileConnecting: true)
        case .unsupportedAuthMechanism:
            self.init(.loginRefused, message: "the server asks for an authentication method postgres-nio does not support", whileConnecting: true)
        case .saslError:
            self.init(.loginRefused, message: "SCRAM authentication failed", whileConnecting: true)
        case .sslUnsupported:
            self.init(.connectionLost, message: "the server does not accept TLS connections, but the sslmode requires TLS", whileConnecting: true)
        case .queryCancelled:
            self.init(.server, sqlState: "57014", message: "the statement was cancelled", whileConnecting: whileConnecting)
        case .serverClosedConnection, .uncleanShutdown:
            let cause = psql.underlying.map(Self.describe) ?? "the server closed the connection"
            self.init(.connectionLost, message: cause, whileConnecting: whileConnecting)
        case .clientClosedConnection:
            self.init(.connectionLost, message: "the connection was closed", whileConnecting: whileConnecting)
        case .connectionError:
            self.init(.connectionLost, message: psql.underlying.map(Self.describe) ?? "connection failed", whileConnecting: whileConnecting)
        default:
            self.init(.connectionLost, message: "\(psql.code)" + (psql.underlying.map { ": " + Self.describe($0) } ?? ""), whileConnecting: whileConnecting)
        }
    }

    /// The text of a transport error: the system's words for an errno, NIO's for a resolver
    /// or TLS failure (none of them holds the password or a bound value).
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let io as IOError:
            return String(cString: strerror(io.errnoCode))
        case let connection as NIOConnectionError:
            if let first = connection.connectionErrors.first { return describe(first.error) }
            if connection.dnsAError != nil || connection.dnsAAAAError != nil { return "cannot resolve host \(connection.host)" }
            return "connection failed"
        case let tls as NIOSSLError:
            return "TLS failed: \(tls)"
        case let tls as BoringSSLError:
            return "TLS failed: \(tls)"
        case let tls as NIOSSLExtraError where tls == .failedToValidateHostname:
            return "TLS failed: the server's certificate does not name the host it was reached as (sslmode=verify-full checks the host name: connect by a name the certificate carries)"
        case let tls as NIOSSLExtraError:
            return "TLS failed: \(tls)"
        case is ChannelError:
            return "connection failed (\(error))"
        default:
            return String(describing: error)
        }
    }

    private static func firstLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown error"
        return line.trimmingCharacters(in: .whitespaces)
    }
}
#endif
