import BenchCore
import CBenchSupport

/// The raw OpenSSL primitive (see raw.c): the limit, no JWT work.
final class RawLib {
    let handle: OpaquePointer
    let message: [UInt8]

    init?(_ m: KeyMaterial, signingInput: [UInt8]) {
        let alg: Int32 = switch m.alg {
        case .hs256: Int32(CBENCH_HS256.rawValue)
        case .rs256: Int32(CBENCH_RS256.rawValue)
        case .ps256: Int32(CBENCH_PS256.rawValue)
        case .es256: Int32(CBENCH_ES256.rawValue)
        case .es384: Int32(CBENCH_ES384.rawValue)
        case .eddsa: Int32(CBENCH_EDDSA.rawValue)
        }
        let key = m.alg == .hs256 ? m.secret : Array(m.privatePEM.utf8)
        guard let h = key.withUnsafeBufferPointer({ cbench_raw_new(alg, $0.baseAddress, $0.count) }) else { return nil }
        handle = h
        message = signingInput
        guard run(sign: true), run(sign: false) else { return nil }
    }

    deinit { cbench_raw_free(handle) }

    @inline(__always) func run(sign: Bool) -> Bool {
        message.withUnsafeBufferPointer {
            cbench_raw_run(handle, sign ? Int32(CBENCH_SIGN.rawValue) : Int32(CBENCH_VERIFY.rawValue), $0.baseAddress, $0.count) == 1
        }
    }

    func makeCase() -> Case {
        var c = Case()
        c.sign = { [self] in guard run(sign: true) else { throw RawFailure() } }
        c.verify = { [self] in guard run(sign: false) else { throw RawFailure() } }
        return c
    }
}

struct RawFailure: Error {}
