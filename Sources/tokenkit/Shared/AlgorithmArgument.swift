import ArgumentParser
import TokenKit

extension JWTAlgorithm: ExpressibleByArgument {
    /// Parses an `--alg` value; an unknown name (including `none`) is a usage error (exit 64).
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { JWTAlgorithm.all.map(\.name) }
}
