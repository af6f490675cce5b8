import ArgumentParser
import TokenKit
internal import TokenKitPrimitives

/// `tokenkit keygen`: makes a new signing key.
struct KeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Generate a key: a PKCS#8 PEM private key, or for HS* a random secret (raw bytes).",
        discussion: """
            RS*/PS*: RSA 2048; ES256/ES384/ES512/ES256K: the algorithm's curve; EdDSA: Ed25519 \
            (--curve Ed448 for Ed448). HS256/384/512: as many random bytes as the hash output. \
            With --out the file is created with mode 0600 and never overwritten.
            """)

    @Option(help: "Algorithm the key is for.")
    var alg: JWTAlgorithm

    @Option(help: "Write the key to this new file (mode 0600) instead of stdout.")
    var out: String?

    @Option(help: "RSA modulus size in bits (2048 to 16384).")
    var bits: Int = 2048

    @Option(help: "EdDSA curve: Ed25519 (default) or Ed448.")
    var curve: String = "Ed25519"

    func validate() throws {
        guard (2048...16384).contains(bits) else { throw ValidationError("--bits must be 2048 to 16384") }
        guard isEd448 || curve.isByteIdentical(to: "Ed25519") else { throw ValidationError("--curve must be Ed25519 or Ed448") }
        if isEd448 && alg != .eddsa { throw ValidationError("--curve applies to EdDSA only") }
    }

    /// Whether `--curve` names Ed448 (byte for byte, as every identifier option).
    private var isEd448: Bool { curve.isByteIdentical(to: "Ed448") }

    func run() async throws {
        try await reportingFailures {
            let output: [UInt8]
            do {
                if alg.isHMAC {
                    let key = try JWTKey.generate(for: alg)
                    let jwk = try key.jwkObject(includingPrivate: true)
                    guard let k = jwk["k"]?.stringValue else { throw CLIFailure.io("cannot export the secret") }
                    output = try Base64URL.decode(k)
                } else {
                    let key = alg == .eddsa && isEd448 ? try JWTKey.generateEd448() : try JWTKey.generate(for: alg, rsaBits: bits)
                    output = Array(try key.privateKeyPEM().utf8)
                }
            } catch let error as JWTError {
                throw CLIFailure.io(error.reason)
            } catch let error as Base64URL.DecodingFailure {
                throw CLIFailure.io(error.reason)
            }
            if let out {
                try NewFileWriter.write(output, to: out, what: "key file")
            } else {
                StandardStreams.writeOutput(output)
            }
        }
    }
}
