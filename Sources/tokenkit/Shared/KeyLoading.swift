import Foundation
import TokenKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads the keys `sign` and `verify` take from files (and JWKS from https URLs).
/// Every failure is a ``CLIFailure/io(_:)`` (exit 2) whose message names the file, never
/// its contents.
enum KeyLoading {
    /// A key file: PEM, or JSON holding a JWK or a JWKS.
    static func keys(fromFile path: String, purpose: Purpose) throws -> JWKSet {
        let bytes = try TokenInput.readFile(path, what: "key file")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIFailure.io("key file \(path) is not text (expected PEM or JWK JSON)")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        do throws(JWTError) {
            if trimmed.hasPrefix("{") {
                let object = try JSONValue(parsing: trimmed, maxDepth: 5).objectValue ?? JSONObject()
                if object["keys"] != nil {
                    return try JWKSet(json: trimmed)
                }
                let key = try JWTKey(jwk: object)
                return JWKSet(keys: [try purpose == .verify && key.keyType != "oct" ? key.publicKey() : key])
            }
            let key = try JWTKey(pem: trimmed)
            return JWKSet(keys: [purpose == .verify ? try key.publicKey() : key])
        } catch {
            throw CLIFailure.io("unusable key in \(path): \(error.reason)")
        }
    }

    /// An HMAC secret: the file's raw bytes.
    static func secret(fromFile path: String) throws -> JWTKey {
        let bytes = try TokenInput.readFile(path, what: "secret file", limit: 64 * 1024)
        do { return try JWTKey.hmac(secret: bytes) } catch {
            throw CLIFailure.io("unusable secret in \(path): \(error.reason)")
        }
    }

    /// A JWKS from a file or an https URL (http only for loopback addresses).
    static func jwks(from location: String) async throws -> JWKSet {
        guard location.lowercased().hasPrefix("https://") || location.lowercased().hasPrefix("http://") else {
            return try keysFromJWKSFile(location)
        }
        guard let url = URL(string: location), let host = url.host else { throw CLIFailure.io("invalid JWKS URL") }
        try requireSecureTransport(url, host: host)
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data, response: URLResponse
        do { (data, response) = try await URLSession.shared.data(for: request) } catch {
            throw CLIFailure.io("cannot fetch JWKS from \(host): \(error.localizedDescription)")
        }
        if let final = response.url, let finalHost = final.host { try requireSecureTransport(final, host: finalHost) }
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw CLIFailure.io("cannot fetch JWKS from \(host): HTTP status \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        guard data.count <= 1024 * 1024, let text = String(data: data, encoding: .utf8) else {
            throw CLIFailure.io("the JWKS from \(host) is too large or not UTF-8")
        }
        do { return try JWKSet(json: text) } catch { throw CLIFailure.io("unusable JWKS from \(host): \(error.reason)") }
    }

    private static func keysFromJWKSFile(_ path: String) throws -> JWKSet {
        let bytes = try TokenInput.readFile(path, what: "JWKS file")
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIFailure.io("JWKS file \(path) is not UTF-8") }
        do { return try JWKSet(json: text) } catch { throw CLIFailure.io("unusable JWKS in \(path): \(error.reason)") }
    }

    private static func requireSecureTransport(_ url: URL, host: String) throws {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http" where isLoopback(host): return
        default: throw CLIFailure.io("refusing to fetch a JWKS over plain http from \(host) (https required; http only for loopback)")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    enum Purpose { case sign, verify }
}
