#if canImport(Glibc)
import Glibc
#endif

/// The command line both comparison servers take, the same as `resource-server`'s:
/// `--port N --issuer ISS --audience AUD --jwks-url URL`.
public struct ServerOptions: Sendable {
    public var port = 8080
    public var issuer = ""
    public var audience = ""
    public var jwksURL = ""

    /// The options of this process, read once (the claims' `verify(using:)` has no other way
    /// to learn the expected issuer and audience).
    public static let current = ServerOptions(Array(CommandLine.arguments.dropFirst()))

    public init(_ args: [String]) {
        var i = 0
        func value() -> String {
            i += 1
            guard i < args.count else { fail("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--port": port = Int(value()) ?? -1
            case "--issuer": issuer = value()
            case "--audience": audience = value()
            case "--jwks-url": jwksURL = value()
            default: fail("unknown option \(args[i])")
            }
            i += 1
        }
        guard (1...65535).contains(port) else { fail("--port must be 1…65535") }
        guard !issuer.isEmpty, !audience.isEmpty, !jwksURL.isEmpty else {
            fail("usage: --port N --issuer ISS --audience AUD --jwks-url URL")
        }
    }
}

/// Prints `message` to stderr and exits 64 (usage error).
public func fail(_ message: String) -> Never {
    let line = Array("error: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(64)
}
