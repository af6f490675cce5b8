import TokenKitStore

/// Collects the JWTs held in a ``TokenStore`` into audit batches, for `tokenkit audit
/// --store`.
///
/// For each account of each service: a token set yields its `access_token` (line 1) and
/// `id_token` (line 2, when present); a plain secret is audited (line 1) only when it looks
/// like a compact JWS (ASCII with exactly two dots), so passwords and opaque API keys are
/// skipped rather than reported malformed. Refresh tokens are not audited. The source of
/// each batch is `store:SERVICE/ACCOUNT`. Secrets stay in memory only as long as the
/// returned batches; nothing is printed or logged here.
public enum StoreTokenCollector {
    /// One batch per credential holding a token, in service then account order.
    public static func batches(store: any TokenStore, services: [String]) async throws(TokenStoreError) -> [AuditBatch] {
        var batches: [AuditBatch] = []
        for service in services {
            for info in try await store.accounts(service: service) {
                let key = try CredentialKey(service: service, account: info.account)
                guard let credential = try await store.load(key) else { continue }
                var batch = AuditBatch(source: "store:\(service)/\(info.account)")
                if credential.kind == .tokenSet {
                    guard let tokens = try? credential.tokenSet() else {
                        batch.appendUnreadable(line: 1, reason: "the stored token set does not decode")
                        batches.append(batch)
                        continue
                    }
                    batch.append(tokens.accessToken, line: 1)
                    if let idToken = tokens.idToken { batch.append(idToken, line: 2) }
                } else if looksLikeJWS(credential.secret) {
                    credential.secret.withUnsafeBytes { batch.append($0, line: 1) }
                }
                if batch.count > 0 { batches.append(batch) }
            }
        }
        return batches
    }

    /// ASCII without spaces, with exactly two dots.
    static func looksLikeJWS(_ bytes: [UInt8]) -> Bool {
        var dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") { dots += 1 } else if byte <= 0x20 || byte >= 0x7F { return false }
        }
        return dots == 2
    }
}
