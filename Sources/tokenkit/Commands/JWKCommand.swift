import ArgumentParser
import TokenKit

/// `tokenkit jwk`: prints the JWK of a PEM key, with its RFC 7638 thumbprint as `kid`.
struct JWKCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwk",
        abstract: "Print the JWK of a PEM key (kid = RFC 7638 thumbprint).")

    @Argument(help: "PEM key or certificate file.")
    var path: String

    @Flag(help: "Include the private key members (the output is then secret).")
    var `private` = false

    func run() async throws {
        try await reportingFailures {
            let bytes = try TokenInput.readFile(path, what: "key file")
            guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIFailure.io("key file \(path) is not PEM text") }
            do {
                let key = try JWTKey(pem: text)
                guard !`private` || key.isSecret else { throw CLIFailure.io("key file \(path) holds a public key; --private needs a private key") }
                let withID = key.withKeyID(try key.thumbprint())
                StandardStreams.printOutput(try withID.jwk(includingPrivate: `private`))
            } catch let error as JWTError {
                throw CLIFailure.io("unusable key in \(path): \(error.reason)")
            }
        }
    }
}
