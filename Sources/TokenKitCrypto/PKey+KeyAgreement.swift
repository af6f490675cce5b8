internal import COpenSSL

extension PKey {
    /// The ECDH (EC keys) or X25519 shared secret Z between this private key and `peer`.
    ///
    /// Both keys passed the admission gate (``init(taking:isPrivate:)``), so the peer is a
    /// valid point on its curve (the defence against invalid-curve attacks); here they must
    /// also be of the same type and curve. An all-zero secret (X25519 with a small-order peer
    /// point, RFC 7748 §6.1) is refused. Z is returned in ``SecureBytes``.
    package func sharedSecret(with peer: PKey) throws(CryptoError) -> SecureBytes {
        guard isPrivate else { throw CryptoError("key agreement needs the private key") }
        guard peer.type == type else { throw CryptoError("key agreement between a \(type) key and a \(peer.type) key") }
        switch type {
        case .ec, .x25519: break
        default: throw CryptoError("a \(type) key cannot agree keys")
        }
        OpenSSLErrorQueue.clear()
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { throw .openSSL("cannot allocate a key context") }
        defer { EVP_PKEY_CTX_free(ctx) }
        // validate_peer 0: the peer already passed the admission gate's public-key check.
        var length = 0
        guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer_ex(ctx, peer.pointer, 0) == 1,
              EVP_PKEY_derive(ctx, nil, &length) == 1, length > 0, length <= 132
        else { throw .openSSL("key agreement failed") }
        let secret = try SecureBytes.filling(count: length) { (output) throws(CryptoError) in
            var written = length
            guard EVP_PKEY_derive(ctx, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written) == 1, written == length else {
                throw CryptoError.openSSL("key agreement failed")
            }
        }
        let allZero = secret.withUnsafeBytes { bytes in bytes.reduce(UInt8(0)) { $0 | $1 } == 0 }
        guard !allZero else { throw CryptoError("key agreement produced the all-zero secret (a small-order peer key)") }
        return secret
    }
}

extension PKey {
    /// The EC public key at (`x`, `y`) on this key's curve: a key-agreement peer such as a
    /// JWE `epk`.
    ///
    /// Built on a copy of this key's group (`EVP_PKEY_copy_parameters`, then
    /// `EVP_PKEY_set1_encoded_public_key` with the uncompressed point) instead of a group
    /// constructed from the curve's name (`EVP_PKEY_fromdata`), which costs about half as
    /// much as the ECDH the key is used for. Guarantees: the coordinates are exactly the
    /// curve's size, and the key passes the same admission gate as every other key
    /// (``init(taking:isPrivate:)``: the point is on this curve). Does not: accept compressed
    /// points, or any curve other than this key's.
    package func ecPeer(x: [UInt8], y: [UInt8]) throws(CryptoError) -> PKey {
        guard case .ec(let curve) = type else { throw CryptoError("a \(type) key has no EC peer") }
        try Self.checkCoordinates(x, y, on: curve)
        OpenSSLErrorQueue.clear()
        guard let peer = EVP_PKEY_new() else { throw .openSSL("cannot allocate a key") }
        let owned = OwnedPKey(peer)
        let point = [0x04] + x + y
        guard EVP_PKEY_copy_parameters(peer, pointer) == 1,
              EVP_PKEY_set1_encoded_public_key(peer, point, point.count) == 1
        else { throw .openSSL("the public key is invalid") }
        return try PKey(taking: owned.release(), isPrivate: false)
    }
}
