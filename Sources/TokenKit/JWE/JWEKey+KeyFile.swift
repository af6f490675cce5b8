extension JWEKey {
    /// The key in a key file's `contents`, read for `algorithm`: the file's raw bytes are the
    /// shared secret for A128KW/A192KW/A256KW and `dir` (no trimming, no encoding); for RSA-OAEP*
    /// and ECDH-ES* the file is text holding one PEM key or one JWK (recognised as
    /// ``KeyFile/Format`` recognises key files; a JWKS is refused: give one key).
    ///
    /// This reads no file and decides nothing about permissions: the caller reads the bytes
    /// (through its secret-file check when the file holds a private key or a secret).
    ///
    /// - Throws: ``JWTError/Code/tooLarge`` beyond ``KeyFile/maximumSize``;
    ///   ``JWTError/Code/invalidKey`` when the file holds no usable key;
    ///   ``JWTError/Code/algorithmNotAllowed`` when it holds a key that does not fit
    ///   `algorithm` (a secret of another length, an RSA key for ECDH-ES, …).
    public init(keyFileContents contents: some Collection<UInt8>, for algorithm: JWEKeyAlgorithm) throws(JWTError) {
        guard contents.count <= KeyFile.maximumSize else {
            throw JWTError(code: .tooLarge, reason: "the key file is larger than \(KeyFile.maximumSize) bytes")
        }
        let key: JWEKey
        if algorithm.isAsymmetric {
            guard let format = KeyFile.Format(detecting: contents), let text = KeyFile.text(of: contents) else {
                throw .invalidKey("the key file is not text (expected PEM or JWK JSON for \(algorithm))")
            }
            switch format {
            case .jwks: throw .invalidKey("the key file holds a JWKS; give one key")
            case .jwk: key = try JWEKey(jwk: text)
            default: key = try JWEKey(pem: text)
            }
        } else {
            guard !JWEKey.fitting(secretLength: contents.count).isEmpty else {
                throw Self.misfit("a secret of \(contents.count) bytes", algorithm)
            }
            key = try JWEKey.symmetric(secret: contents)
        }
        guard key.algorithms.contains(algorithm) else {
            throw Self.misfit(key.keyType == "oct" ? "a secret of \(contents.count) bytes" : "the key (\(key.keyType))", algorithm)
        }
        self = key
    }

    private static func misfit(_ what: String, _ algorithm: JWEKeyAlgorithm) -> JWTError {
        let needs: String
        switch algorithm.family {
        case .aesKeyWrap(let bytes): needs = " (it needs \(bytes) bytes)"
        case .direct: needs = " (it needs the enc's key length: 16, 24, 32, 48 or 64 bytes)"
        default: needs = ""
        }
        return JWTError(code: .algorithmNotAllowed, reason: "\(what) cannot be used with \(algorithm)\(needs)")
    }
}
