import ArgumentParser

/// `--port PORT` and `--token-lifetime SECONDS`, shared by every reference server.
public struct ServerOptions: ParsableArguments {
    /// The TCP port on 127.0.0.1; 0 picks a free one.
    @Option(help: "The port to listen on at 127.0.0.1 (0 picks a free port).")
    public var port: Int = 3000

    /// Access-token lifetime in seconds, 1 to 900.
    @Option(help: "How long access tokens live, in seconds (1 to 900).")
    public var tokenLifetime: Int = 900

    /// Creates the options with their defaults.
    public init() {}

    /// Rejects ports and lifetimes out of range.
    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (1...900).contains(tokenLifetime) else { throw ValidationError("--token-lifetime must be 1 to 900 seconds") }
    }
}
