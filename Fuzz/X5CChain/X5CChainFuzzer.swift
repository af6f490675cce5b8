import Foundation
import FuzzSupport
import TokenKit

/// Fuzz target: x5c parsing and chain verification never crash, never hang, and never accept
/// a token whose chain no one could have signed.
///
/// Two modes, by the first byte. `0x30` (a DER SEQUENCE): the input is one certificate, parsed
/// and read (subject, issuer, validity, an extension), then verified as a leaf without
/// intermediates. Anything else: the input is a compact JWS verified with an
/// ``X5CVerifier`` trusting only ``root``, a certificate whose private key was discarded when
/// it was made (by Fuzz/make-seeds.py's author, once): no input can carry a chain it signed,
/// so any accepted token is a finding. The seeds carry chains from another root with the
/// same name, so path building gets as far as the signature checks.
enum X5CChainHarness {
    static let root = """
        -----BEGIN CERTIFICATE-----
        MIIBtTCCAVygAwIBAgIUEC2bpnBe+5pXGSi8ah7ue8SorK4wCgYIKoZIzj0EAwIw
        ODEbMBkGA1UEAwwSVG9rZW5LaXQgRnV6eiBSb290MRkwFwYDVQQKDBBUb2tlbktp
        dCBGdXp6aW5nMCAXDTI1MDEwMTAwMDAwMFoYDzIwOTkxMjE0MDAwMDAwWjA4MRsw
        GQYDVQQDDBJUb2tlbktpdCBGdXp6IFJvb3QxGTAXBgNVBAoMEFRva2VuS2l0IEZ1
        enppbmcwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASYNUDLPPsMA9Xc6aoYVzS4
        xl6BVS8WNgj/Em9vURIrR+wX8+Lp8PKCqQkWkxPrRe5P/m6uxH5pKqougxaiM73E
        o0IwQDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBhjAdBgNVHQ4EFgQU
        im8JHbmZI5FgKhCEDq+fSGJIKzkwCgYIKoZIzj0EAwIDRwAwRAIgE1STEC0nC2Vj
        4X90BogUx8nbF8pZEi7adfwB6+XEyqcCIEfs/0Pjy3jbRTAJZc15aU1R9a8WxUjG
        /ebMpaPR/ICb
        -----END CERTIFICATE-----
        """

    static let verifier: X5CVerifier = {
        do {
            return try X5CVerifier(trustedRoots: try X509Certificate.certificates(pem: root),
                                   options: ValidationOptions(requiredClaims: [], clock: FixedClock(Date(timeIntervalSince1970: 1_800_000_000))))
        } catch {
            FuzzInput.finding("cannot set up the trusted root: \(error)")
        }
    }()

    static func run(_ bytes: [UInt8]) {
        if bytes.first == 0x30 {
            guard let certificate = try? X509Certificate(derEncoded: bytes) else { return }
            _ = (certificate.subject, certificate.issuer, certificate.validity, certificate.hasExtension(oid: "2.5.29.19"))
            let header = #"{"alg":"ES256","x5c":[""# + Data(bytes).base64EncodedString() + #""]}"#
            let token = Base64URL.encode(Array(header.utf8)) + ".e30.AAAA"
            if (try? verifier.verifyJWS(token)) != nil { FuzzInput.finding("a lone certificate verified to the fuzz root") }
            return
        }
        let token = String(decoding: bytes, as: UTF8.self)
        if (try? verifier.verify(token)) != nil { FuzzInput.finding("verify accepted an x5c chain no one signed") }
        if (try? verifier.verifyJWS(token)) != nil { FuzzInput.finding("verifyJWS accepted an x5c chain no one signed") }
    }
}

#if TOKENKIT_FUZZING
/// libFuzzer's per-input entry point (its own `main`, when the linker picks that one, calls it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzX5CChain(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    X5CChainHarness.run(FuzzInput.bytes(start, count))
    return 0
}
#endif

@main
enum X5CChainFuzzer {
    static func main() {
        FuzzInput.main(callback: { start, count in
            X5CChainHarness.run(FuzzInput.bytes(start, count))
            return 0
        }, harness: X5CChainHarness.run)
    }
}
