extension KeyFile {
    /// The JWK members that carry private or secret material (RFC 7518 §6.2.2, §6.3.2, §6.4.1;
    /// RFC 8037 §2): an EC or OKP `d`, an RSA key's private parameters, an `oct` key's `k`.
    private static let secretMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Whether key-file `contents` hold secret material — a private key or an HMAC secret —
    /// anywhere in the file, whatever a ``Purpose`` would keep of it: a PEM file with any
    /// `… PRIVATE KEY` block (PKCS#8, encrypted PKCS#8, PKCS#1, SEC1, OpenSSH; also after a
    /// certificate), or JSON holding a JWK, or a JWKS entry, with a private member (`d`, `p`,
    /// `q`, `dp`, `dq`, `qi`, `oth`) or an `oct` secret (`k`).
    ///
    /// This decides whether a key file is a secret file (one other users must not be able to
    /// read): a file of public keys and certificates only is not. Looks at the bytes only and
    /// loads nothing; bytes that are not UTF-8 text, or JSON that does not parse, are not key
    /// files (loading them fails) and give `false`.
    public static func holdsSecret(_ contents: some Collection<UInt8>) -> Bool {
        guard let format = Format(detecting: contents) else { return false }
        let text = String(decoding: contents, as: UTF8.self)
        if format == .pem { return pemHoldsPrivateKey(text) }
        guard let object = try? JSONValue(parsing: text, maxDepth: 5).objectValue else { return false }
        let entries = format == .jwks ? (object["keys"]?.arrayValue ?? []).compactMap(\.objectValue) : [object]
        return entries.contains { entry in secretMembers.contains { entry[$0] != nil } }
    }

    /// Whether a PEM text has a block whose label names a private key (`-----BEGIN … PRIVATE
    /// KEY-----`).
    private static func pemHoldsPrivateKey(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            guard trimmed.hasPrefix("-----BEGIN "), let label = trimmed.dropFirst("-----BEGIN ".count).split(separator: "-", maxSplits: 1).first
            else { return false }
            return label.contains("PRIVATE KEY")
        }
    }
}
