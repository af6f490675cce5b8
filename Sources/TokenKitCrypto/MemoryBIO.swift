internal import COpenSSL

/// An owned OpenSSL memory BIO, freed when this value goes away.
final class MemoryBIO {
    let pointer: OpaquePointer

    /// An empty, writable memory BIO.
    init() throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        guard let bio = tokenkit_BIO_new_mem() else { throw .openSSL("cannot allocate a memory buffer") }
        pointer = bio
    }

    deinit { BIO_free(pointer) }

    /// Everything written so far, as a string (PEM output is ASCII).
    func contentsAsString() -> String {
        var data: UnsafeMutablePointer<CChar>?
        let length = tokenkit_BIO_get_mem_data(pointer, &data)
        guard let data, length > 0 else { return "" }
        let buffer = UnsafeRawBufferPointer(start: data, count: length)
        return String(decoding: buffer, as: UTF8.self)
    }
}
