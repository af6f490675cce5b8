internal import COpenSSL

/// TokenKit's own sanity rules for an RSA public key, checked for every RSA key whatever
/// its source (independent of what the OpenSSL version's public-key check covers).
///
/// Refused: an even modulus (never a product of two odd primes), and a public exponent
/// that is even or not greater than 1 (e = 1 makes the padded message its own signature,
/// so anyone could forge RS256/PS256 tokens).
enum RSAPublicParameters {
    static func check(_ key: OpaquePointer) throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        var n: OpaquePointer?
        var e: OpaquePointer?
        defer {
            BN_free(n)
            BN_free(e)
        }
        guard EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) == 1, let n,
              EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) == 1, let e
        else { throw .openSSL("cannot read the RSA modulus and exponent") }
        guard BN_is_odd(n) == 1 else { throw CryptoError("RSA key refused: the modulus is even") }
        guard BN_is_odd(e) == 1, BN_num_bits(e) > 1 else {
            throw CryptoError("RSA key refused: the public exponent must be odd and greater than 1")
        }
        guard BN_num_bits(e) <= 256 else {
            throw CryptoError("RSA key refused: the public exponent is longer than 256 bits")
        }
    }
}
