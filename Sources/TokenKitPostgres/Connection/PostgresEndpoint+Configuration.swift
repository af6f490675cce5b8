#if Postgres
import NIOSSL
import PostgresNIO

extension PostgresEndpoint {
    /// postgres-nio's configuration for this endpoint: where to connect, the login, the TLS
    /// mode and `settings` sent as startup parameters (server settings such as
    /// `statement_timeout`, applied before the first statement).
    ///
    /// TLS (libpq's `sslmode` semantics): `disable` never negotiates TLS; `prefer` tries TLS
    /// and falls back to plain without verifying the certificate; `require` insists on TLS
    /// without verifying the certificate (as libpq, it verifies the chain when
    /// `sslrootcert` is given); `verify-ca` verifies the chain only; `verify-full` verifies the
    /// chain and the host name. The chain is checked against `sslrootcert` when given, else
    /// against the system's trust store. A Unix socket never uses TLS.
    func configuration(timeout: Duration, settings: [(String, String)]) throws(PGError) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if isUnixSocket {
            configuration = .init(
                unixSocketPath: host.hasSuffix("/") ? "\(host).s.PGSQL.\(port)" : "\(host)/.s.PGSQL.\(port)",
                username: username, password: password, database: database)
        } else {
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: try tlsConfiguration())
        }
        configuration.options.connectTimeout = .seconds(max(1, timeout.components.seconds))
        configuration.options.additionalStartupParameters = [("application_name", "tokenkit")] + settings
        return configuration
    }

    private func tlsConfiguration() throws(PGError) -> PostgresConnection.Configuration.TLS {
        var verification: CertificateVerification
        switch tls {
        case .disable: return .disable
        case .prefer, .require: verification = rootCertificate == nil ? .none : .noHostnameVerification
        case .verifyCA: verification = .noHostnameVerification
        default: verification = .fullVerification
        }
        if tls == .prefer { verification = .none }
        var settings = TLSConfiguration.makeClientConfiguration()
        settings.certificateVerification = verification
        settings.minimumTLSVersion = .tlsv12
        if let rootCertificate, rootCertificate != "system" {
            settings.trustRoots = .file(rootCertificate)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: settings)
        } catch {
            throw PGError(.connectionLost, message: "cannot load the TLS settings (sslrootcert \(rootCertificate ?? "system")): \(error)", whileConnecting: true)
        }
        return tls == .prefer ? .prefer(context) : .require(context)
    }
}
#endif
