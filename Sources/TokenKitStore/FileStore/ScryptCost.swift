/// The scrypt cost used when an ``EncryptedFileStore`` creates a new file (an existing file's
/// own parameters, from its authenticated header, are always used to open it).
///
/// Guarantees: values outside the accepted range (N = 2^1…2^30, r = 1…64, p = 1…16, N·r·p at
/// most 2^23 (32 times ``interactive``), at most
/// 1 GiB of memory) are refused when the file is created. Does not: pick a cost for your
/// hardware — ``interactive`` is a sound default for a desktop; tests may use a tiny N.
public struct ScryptCost: Sendable, Hashable, CustomStringConvertible {
    /// log2 of N, the CPU/memory cost.
    public var logN: UInt8
    /// The block size r.
    public var r: UInt32
    /// The parallelization p.
    public var p: UInt32

    /// N = 2^15, r = 8, p = 1: about 32 MiB and a tenth of a second.
    public static let interactive = ScryptCost(logN: 15, r: 8, p: 1)

    /// A cost with the given parameters (validated when used).
    public init(logN: UInt8, r: UInt32, p: UInt32) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// E.g. `scrypt(N=2^15, r=8, p=1)`.
    public var description: String { "scrypt(N=2^\(logN), r=\(r), p=\(p))" }
}
