import ArgumentParser
import TokenKit

/// `tokenkit decode`: shows a token's header and payload without verifying anything.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a JWT WITHOUT verifying it; print {\"header\":…,\"payload\":…}.")

    @Argument(help: "The token, or '-' for stdin.")
    var token: String?

    func run() async throws {
        try await reportingFailures {
            let text = try TokenInput.token(token)
            let jwt: UnverifiedJWT
            do throws(JWTError) { jwt = try UnverifiedJWT(parsing: text) } catch { throw CLIFailure.rejected(error.reason) }
            var out = JSONObject()
            out["header"] = .object(jwt.header.raw)
            out["payload"] = .object(jwt.claims.raw)
            StandardStreams.writeError("warning: the signature was not verified; do not trust these claims")
            StandardStreams.printOutput(JSONValue.object(out).terminalJSONText)
        }
    }
}
