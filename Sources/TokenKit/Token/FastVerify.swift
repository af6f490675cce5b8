internal import TokenKitCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
internal import TokenKitPrimitives
#endif

/// What the fast path concluded.
enum FastVerifyOutcome {
    /// Signature and claims verified.
    case verified(VerifiedJWT)
    /// Signature verified (``JWTVerifier/verifyJWS(_:)``).
    case jws(JWTHeader, [UInt8])
    /// Refused, with the error the general path reports for this token.
    case failed(JWTError)
    /// Not handled here: run the general path (which reports any problem exactly).
    case fallback
}

extension JWTVerifier {
    /// The per-request fast path of ``verify(_:)`` and ``verifyJWS(_:)``.
    ///
    /// Same checks in the same order as the general path, minus the work that does not
    /// change the outcome: no copy of the token (its UTF-8 is read in place), the header
    /// parsed once per distinct header text (``HeaderCache``), the signature decoded into a
    /// stack buffer and checked with pooled OpenSSL contexts, and the claims checked by the
    /// claim rules over ``RegisteredClaimsView`` instead of a JSON object, which is
    /// materialised only if the caller reads ``VerifiedJWT/claims``.
    ///
    /// Anything unusual before the signature check (a malformed token, an algorithm or key
    /// problem) returns `.fallback`, so the general path reports it; after the signature
    /// check, failures are reported by the same functions the general path uses.
    func fastVerify(_ token: String, claims wantClaims: Bool) -> FastVerifyOutcome {
        let limits = options.limits
        let outcome = token.utf8.withContiguousStorageIfAvailable { bytes -> FastVerifyOutcome in
            let count = bytes.count
            guard count > 0, count <= limits.maxTokenBytes else { return .fallback }
            guard let (first, second) = TokenSplit.dots(bytes) else { return .fallback }

            let headerText = UnsafeBufferPointer(rebasing: bytes[0..<first])
            let header: JWTHeader
            do {
                header = try headerCache.header(for: headerText, limits: limits) { () throws(JWTError) in
                    try CompactJWS.parseHeader(headerText, limits: limits)
                }
            } catch { return .fallback }
            guard let algorithm = header.algorithm, header.critical == nil,
                  options.algorithms?.containsFast(algorithm) != false else { return .fallback }
            // One key (the common case) is checked in place: no candidate array is copied,
            // so no reference count shared by every verifying thread is written.
            let singleKey = keys.keys.count == 1 && keys.ambiguousKeyIDs.isEmpty
            var candidates: [JWTKey] = []
            if singleKey {
                guard keys.isSingleUnnamedKey || header.keyID == nil || Self.sameKeyID(keys.keys[0].keyID, header.keyID),
                      keys.keys[0].mayVerify, keys.keys[0].algorithms.containsFast(algorithm) else {
                    return .fallback
                }
            } else {
                guard let found = try? keys.candidates(forKeyID: header.keyID, algorithm: algorithm) else { return .fallback }
                candidates = found
            }

            let payloadText = UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])
            guard let payload = try? Base64URL.decode(payloadText) else { return .fallback }
            let signatureText = UnsafeBufferPointer(rebasing: bytes[(second + 1)...])
            guard signatureText.count % 4 != 1 else { return .fallback }
            let signingInput = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[0..<second]))
            let signatureLength = Base64URL.decodedLength(signatureText.count)
            let checked: Result<Void, JWTError>? = withUnsafeTemporaryAllocation(byteCount: max(signatureLength, 1), alignment: 16) { buffer in
                guard Base64URL.decode(signatureText, into: buffer) else { return nil }
                let signature = UnsafeRawBufferPointer(rebasing: buffer[0..<signatureLength])
                if singleKey {
                    switch Self.check(signature, for: signingInput, algorithm: algorithm, key: keys.keys[0]) {
                    case .valid: return .success(())
                    case .invalid(let reason): return .failure(Self.badSignature(reason, tried: 1))
                    }
                }
                do throws(JWTError) {
                    try Self.checkSignature(signature, for: signingInput, algorithm: algorithm, candidates: candidates)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            switch checked {
            case nil: return .fallback
            case .failure(let error): return .failed(error)
            case .success: break
            }
            guard wantClaims else { return .jws(header, payload) }
            return optionsReplicas.withLocal(options) { Self.checkClaims(header: header, payload: payload, options: $0) }
        }
        return outcome ?? .fallback
    }

    /// Whether both key IDs are present and byte-identical.
    static func sameKeyID(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        return a.isByteIdentical(to: b)
    }

    /// The claims step after a verified signature (the same one the general path takes).
    static func checkClaims(header: JWTHeader, payload: [UInt8], options: ValidationOptions) -> FastVerifyOutcome {
        do throws(JWTError) {
            return .verified(try ClaimValidator.verified(header: header, payload: payload, options: options))
        } catch {
            return .failed(error)
        }
    }
}

/// Finding the two dots of a compact JWS with `memchr` (vectorised in libc).
enum TokenSplit {
    /// Offsets of exactly two dots, the first not at offset 0; `nil` otherwise.
    @inline(__always)
    static func dots(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        func find(from start: Int) -> Int? {
            guard start < count, let hit = memchr(base + start, 0x2E, count - start) else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
        guard let first = find(from: 0), first > 0, let second = find(from: first + 1), find(from: second + 1) == nil else { return nil }
        return (first, second)
    }
}
