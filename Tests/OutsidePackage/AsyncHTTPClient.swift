import TokenKitAsyncHTTPClient
import TokenKitAuth

/// The AsyncHTTPClient trait's product, as README's service example uses it.
enum TraitCheck {
    static func run() async throws -> String {
        let transport = AsyncHTTPClientTransport(timeout: .seconds(5))
        let described = String(describing: type(of: transport))
        try await transport.shutdown()
        return "trait AsyncHTTPClient: \(described)"
    }
}
