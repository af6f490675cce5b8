import Foundation
import TokenKit
import TokenKitAuth
import TokenKitURLSession
internal import TokenKitPrimitives

/// Loads the keys `sign`, `verify` and `audit` take from files (and JWKS from https URLs):
/// reads the file through the secret-file admission check (``SecretFileReading``: a file
/// holding a private key or an HMAC secret must not be readable by other users; public keys
/// are exempt) and maps the library's errors (``KeyFile`` decides what a key file holds).
/// Every failure is a ``CLIFailure/io(_:)`` (exit 2) whose message names the file, never its
/// contents; the bytes read are wiped.
enum KeyLoading {
    /// A key file: PEM, or JSON holding a JWK or a JWKS.
    static func keys(fromFile path: String, purpose: Purpose) throws -> JWKSet {
        var bytes = try SecretFileReading.readKeyFile(path)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        return try keys(fromBytes: bytes, path: path, purpose: purpose)
    }

    /// The keys in `bytes` read from `path` (named in errors): detected and loaded by the
    /// library's ``KeyFile`` (PEM, or JSON holding a JWK or a JWKS).
    static func keys(fromBytes bytes: [UInt8], path: String, purpose: Purpose) throws -> JWKSet {
        guard KeyFile.Format(detecting: bytes) != nil else {
            throw CLIFailure.io("key file \(path) is not text (expected PEM or JWK JSON)")
        }
        do throws(JWTError) {
            return try KeyFile(contents: bytes, for: purpose == .verify ? .verification : .signing).keySet
        } catch {
            throw CLIFailure.io("unusable key in \(path): \(error.reason)")
        }
    }

    /// An HMAC secret: the raw bytes of a secret file (mode 0600 or stricter).
    static func secret(fromFile path: String) throws -> JWTKey {
        var bytes = try SecretFileReading.read(path, what: "secret file", limit: 64 * 1024)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        do { return try JWTKey.hmac(secret: bytes) } catch {
            throw CLIFailure.io("unusable secret in \(path): \(error.reason)")
        }
    }

    /// A JWKS from a file or an https URL (http only for loopback addresses).
    static func jwks(from location: String) async throws -> JWKSet {
        // The scheme is ASCII case-insensitive (RFC 3986 §3.1): ASCII folding only.
        let folded = location.asciiLowercased
        guard folded.hasPrefix("https://") || folded.hasPrefix("http://") else {
            return try keysFromJWKSFile(location)
        }
        guard let url = URL(string: location) else { throw CLIFailure.io("invalid JWKS URL") }
        return try await remoteJWKS(.url(url))
    }

    /// A JWKS fetched once through the library's ``RemoteJWKS`` (https, http only for
    /// loopback; same-origin redirects only; 1 MiB; 10 s; public keys only).
    static func remoteJWKS(_ location: RemoteJWKS.Location) async throws -> JWKSet {
        let source: RemoteJWKS
        let transport = try HTTPTransports.urlSession(timeout: .seconds(10))
        do throws(AuthError) { source = try RemoteJWKS(location, transport: transport) } catch {
            throw CLIFailure.io("refusing to fetch the JWKS: \(error.message)")
        }
        do throws(JWTError) { return try await source.keySet() } catch { throw CLIFailure.io("cannot fetch the JWKS: \(error.reason)") }
    }

    private static func keysFromJWKSFile(_ path: String) throws -> JWKSet {
        var bytes = try SecretFileReading.readKeyFile(path, what: "JWKS file")
        defer { for index in bytes.indices { bytes[index] = 0 } }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIFailure.io("JWKS file \(path) is not UTF-8") }
        do { return try JWKSet(json: text) } catch { throw CLIFailure.io("unusable JWKS in \(path): \(error.reason)") }
    }

    enum Purpose { case sign, verify }
}
