extension CryptoError {
    /// Runs `body`, whose closures can only throw untyped errors (`rethrows` APIs such as
    /// `withUnsafeBytes`), and rethrows what it threw as a ``CryptoError``. Only wrapper code
    /// throws inside such bodies, so anything else becomes `fallback`.
    package static func rethrowing<T>(_ fallback: String, _ body: () throws -> T) throws(CryptoError) -> T {
        do {
            return try body()
        } catch let error as CryptoError {
            throw error
        } catch {
            throw CryptoError(fallback)
        }
    }
}
