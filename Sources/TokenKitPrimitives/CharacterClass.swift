/// The ASCII character classes of the OAuth and JOSE grammars, defined once for every room
/// that checks or cleans text against them (token character sets, DPoP nonces, scopes,
/// OAuth error texts, RFC 6750 challenges).
///
/// Each test takes a code point (a byte of UTF-8, or a `Unicode.Scalar`'s value); every
/// class is ASCII-only, so a multi-byte UTF-8 sequence never passes. Guarantees exactly the
/// grammar named on each; does not say anything about length or position.
package enum CharacterClass {
    /// base64url alphabet (RFC 4648 §5): `A-Z a-z 0-9 - _`.
    @inlinable
    package static func isBase64URL(_ c: UInt32) -> Bool {
        switch c {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F: true
        default: false
        }
    }

    /// RFC 6750 §2.1 `b64token` characters before the `=` padding: base64url plus `. ~ + /`.
    @inlinable
    package static func isB64Token(_ c: UInt32) -> Bool {
        isBase64URL(c) || c == 0x2E || c == 0x7E || c == 0x2B || c == 0x2F
    }

    /// RFC 6749 Appendix A `VSCHAR`: printable ASCII, `%x20-7E`.
    @inlinable
    package static func isVSCHAR(_ c: UInt32) -> Bool { c >= 0x20 && c <= 0x7E }

    /// RFC 6749 Appendix A `NQCHAR`: `%x21 / %x23-5B / %x5D-7E` (printable ASCII without
    /// space, `"` and `\`): scope tokens, DPoP nonces (RFC 9449 §8.1).
    @inlinable
    package static func isNQCHAR(_ c: UInt32) -> Bool { c == 0x21 || (c >= 0x23 && c <= 0x5B) || (c >= 0x5D && c <= 0x7E) }

    /// RFC 6749 Appendix A `NQSCHAR`: `%x20-21 / %x23-5B / %x5D-7E` (`NQCHAR` plus space):
    /// OAuth `error` / `error_description`, RFC 6750 challenge parameters.
    @inlinable
    package static func isNQSCHAR(_ c: UInt32) -> Bool { c == 0x20 || isNQCHAR(c) }
}

extension CharacterClass {
    /// ``isBase64URL(_:)-(UInt32)`` for a UTF-8 byte.
    @inlinable package static func isBase64URL(_ byte: UInt8) -> Bool { isBase64URL(UInt32(byte)) }
    /// ``isB64Token(_:)-(UInt32)`` for a UTF-8 byte.
    @inlinable package static func isB64Token(_ byte: UInt8) -> Bool { isB64Token(UInt32(byte)) }
    /// ``isVSCHAR(_:)-(UInt32)`` for a UTF-8 byte.
    @inlinable package static func isVSCHAR(_ byte: UInt8) -> Bool { isVSCHAR(UInt32(byte)) }
    /// ``isNQCHAR(_:)-(UInt32)`` for a UTF-8 byte.
    @inlinable package static func isNQCHAR(_ byte: UInt8) -> Bool { isNQCHAR(UInt32(byte)) }
    /// ``isNQSCHAR(_:)-(UInt32)`` for a UTF-8 byte.
    @inlinable package static func isNQSCHAR(_ byte: UInt8) -> Bool { isNQSCHAR(UInt32(byte)) }
}
