internal import TokenKitCrypto
internal import TokenKitPrimitives

/// The claims of a decoded token, materialised from the payload on first access and then
/// kept (thread-safe and lock-free: the first finished computation is published with an
/// atomic compare-and-swap and never replaced).
///
/// The payload was already validated (by the JSON lexer, see ``JSONLexer``) before
/// a cache is made, so materialising cannot fail.
struct ClaimsCache: @unchecked Sendable {
    // @unchecked Sendable: the storage's header is immutable; its one element is only
    // accessed through AtomicSlot and holds a retained, immutable Holder once published.
    let storage: ClaimsStorage

    static func make(payload: [UInt8], limits: ParsingLimits, claims: JWTClaims? = nil) -> ClaimsCache {
        ClaimsCache(storage: .make(payload: payload, limits: limits, claims: claims))
    }

    var claims: JWTClaims { storage.claims }
}

/// One allocation: the payload and limits (header) and the published claims (element).
final class ClaimsStorage: ManagedBuffer<ClaimsStorage.Source, UnsafeMutableRawPointer?> {
    struct Source {
        let payload: [UInt8]
        let limits: ParsingLimits
    }

    private final class Holder {
        let claims: JWTClaims
        init(_ claims: JWTClaims) { self.claims = claims }
    }

    /// A cache for an already-validated payload; `claims` when they were already parsed.
    static func make(payload: [UInt8], limits: ParsingLimits, claims: JWTClaims?) -> ClaimsStorage {
        let buffer = create(minimumCapacity: 1) { _ in Source(payload: payload, limits: limits) }
        let cache = unsafeDowncast(buffer, to: ClaimsStorage.self)
        cache.withUnsafeMutablePointerToElements { slot in
            slot.initialize(to: claims.map { Unmanaged.passRetained(Holder($0)).toOpaque() })
        }
        return cache
    }

    deinit {
        withUnsafeMutablePointerToElements { slot in
            if let held = slot.pointee { Unmanaged<Holder>.fromOpaque(held).release() }
            _ = slot.deinitialize(count: 1)
        }
    }

    var claims: JWTClaims {
        withUnsafeMutablePointers { source, slot in
            if let held = AtomicSlot.load(slot) { return Unmanaged<Holder>.fromOpaque(held).takeUnretainedValue().claims }
            let object = (try? JWTPayloadParser.object(source.pointee.payload, limits: source.pointee.limits)) ?? JSONObject()
            let claims = JWTClaims(object)
            let mine = Unmanaged.passRetained(Holder(claims)).toOpaque()
            if AtomicSlot.publish(slot, mine) { return claims }
            Unmanaged<Holder>.fromOpaque(mine).release()
            return Unmanaged<Holder>.fromOpaque(AtomicSlot.load(slot)!).takeUnretainedValue().claims
        }
    }
}

/// Parsed JWS headers keyed by their exact base64url text AND the ``ParsingLimits`` they
/// were parsed under (everything that changes the answer), so a stream of tokens from one
/// issuer (which all share a header) parses the header once, and a header accepted under
/// lenient limits is never served to a caller with stricter ones. Lock-free: up to eight
/// entries per CPU shard (``ShardedSlots``), each published once and never replaced or freed
/// before the cache itself; a header that finds no free entry is simply parsed every time.
/// Only short headers are kept.
///
/// Per CPU, so that threads on different CPUs neither write to one cache line nor retain
/// and release one shared header (each shard parses its own copy): a shared entry made
/// verification on two threads barely faster than on one.
final class HeaderCache: @unchecked Sendable {
    // @unchecked Sendable: slots are accessed only through AtomicSlot; entries are immutable.
    private final class Entry {
        let text: [UInt8]
        let limits: ParsingLimits
        let header: JWTHeader
        init(text: [UInt8], limits: ParsingLimits, header: JWTHeader) {
            self.text = text
            self.limits = limits
            self.header = header
        }
    }

    static let capacity = 8
    static let maxHeaderText = 512
    private let slots = ShardedSlots(kinds: 1, slotsPerShard: HeaderCache.capacity) { _, entry in
        Unmanaged<Entry>.fromOpaque(entry).release()
    }

    /// The header whose base64url text is `text`, parsed under `limits`: from the cache, or
    /// parsed with `parse` (whose result, when it succeeds, is cached if there is room).
    /// `parse` must apply exactly `limits`.
    func header(
        for text: UnsafeBufferPointer<UInt8>, limits: ParsingLimits, parse: () throws(JWTError) -> JWTHeader
    ) throws(JWTError) -> JWTHeader {
        let slots = slots.local(0)
        for i in 0..<Self.capacity {
            guard let raw = AtomicSlot.load(slots + i) else { break }
            let entry = Unmanaged<Entry>.fromOpaque(raw).takeUnretainedValue()
            if entry.text.count == text.count, entry.limits == limits, entry.text.withUnsafeBytes({ $0.baseAddress.map { bytesEqual($0, text.baseAddress, count: text.count) } ?? text.isEmpty }) {
                return entry.header
            }
        }
        let header = try parse()
        if text.count <= Self.maxHeaderText {
            let entry = Unmanaged.passRetained(Entry(text: Array(text), limits: limits, header: header)).toOpaque()
            var published = false
            for i in 0..<Self.capacity where AtomicSlot.publish(slots + i, entry) {
                published = true
                break
            }
            if !published { Unmanaged<Entry>.fromOpaque(entry).release() }
        }
        return header
    }

    /// The process-wide cache used by ``UnverifiedJWT``.
    static let shared = HeaderCache()
}
