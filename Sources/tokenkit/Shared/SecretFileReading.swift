import TokenKitStore

/// The CLI's use of TokenKitStore's ``SecretFile``: the same checks, reported as exit 2.
enum SecretFileReading {
    /// ``SecretFile/read(_:what:limit:)``, its refusal as ``CLIFailure/io(_:)`` (exit 2).
    static func read(_ path: String, what: String, limit: Int) throws(CLIFailure) -> [UInt8] {
        do {
            return try SecretFile.read(path, what: what, limit: limit)
        } catch {
            throw .io(error.message)
        }
    }
}
