import Testing
import TokenKit

/// RSA keys whose SPKI/PKCS#8 algorithm is id-RSASSA-PSS may only be used for PS*: never
/// RS*, even though the modulus is an ordinary RSA modulus.
@Suite("Keys: RSA-PSS (id-RSASSA-PSS) keys")
struct RSAPSSKeyTests {
    /// An unrestricted RSA-PSS key made with `openssl genpkey -algorithm RSA-PSS` for this
    /// test (it protects nothing).
    static let pssPrivateKey = """
-----BEGIN PRIVATE KEY-----
MIIEvAIBADALBgkqhkiG9w0BAQoEggSoMIIEpAIBAAKCAQEAtlsi8oS5fnuo560G
zeEf0iY81M109OOF3+/vWYqYCoFAwqekLa5i9KBVWgRS7MLuO45Y+WWOZyjaEQgy
66HYmxXW4s8D1jlwhm5xCA6GZXP5fX46Qos4zHbgkJKqSx85EExsH60rc2lk7q24
SFTWv0f5UULImoG/6doLe7Ztg8zSlfsu7nWwWTTP7FTLbrpdLLnQJicBzCwBxC0W
3MwvCMcdpZZG7IZDedo2Zd6YtaWGc+J4SF9+PH+c1soVwZqqfYNOS9I39BvU9+29
FIRUD4Rhnxnm7VrE8Itm6fGv41qIM6PXsTN/OiBLhy8cjUHXFdSwueM1VezwFGYW
NyFA0wIDAQABAoIBAEzPhJ/sogmR4up7KlOMERA+xP7J8Aq6z4gtE39+7l32ZaXY
YUJQoyPxaSI6kgdicGCrq/SY/2uafIgSEQjJqmhgwZvVoQMaPLiTSo8fNyMCv8NJ
aRbgd7NAG4UqEgsEgs/HsP+CvLunWDlk+SuWeMInee/tlnvmTUUecBnTFLwf0Wk2
P0rW9k8UoOoRSIZuxMyurSPQ1qO8qn8C4vBct/zIpAqdLw4TIDODNxiOIg8IYmkc
VzrBnlKorLEEA0cp/WhZc3F1vlyaEzKsWNqj3Z4hN3E2z9W03rJtGzvFSxMmeWtF
/IcGOz7nRWKZ2MNn6M00auHob+NvOdmUJc72JMkCgYEA+XNwv7brlC/QY6RGafEw
D/Ji96YS9GK3lYJGJl3MpdQV0jik7YDHWmEsoLVtBvm0i8NaK5MahgXsxrIIKQ6j
KBbObc0omzAZmHbSOf4I+2rk6rEZ/TJGMJENxjzmuw5wYAYsQp201ufk4enrVJ91
NDlma2Umau54cClrivWzJS0CgYEAuyTARdPkM9PmFnAUXbpYVToVncP4ndp9JbJs
6FLbz3yFSunDsrI7u1MpzzAtXWt1z7XzV7StY/iF/TwqwsfIpOfJyn+Y8v+Y7R+6
j2KE849Zwh3gmGextYhvlMdpikOB7LxTDh28MfXACGZFCe/HFq3UFfVArs6MrsxU
RcRRvf8CgYEAo3LOx+/VgK2rv/5d3QEaWviZfGenN9aPMDnCOVVwyJ+lBK/08WJW
PZQ6p7r5C38GnCWOqcqjsHmlYbQ5wJ1ErvnynOO23aiwvMPuj+0yeXrbMCSHQO52
K1CAVAqHrL2TSHgC/EtVuRMNWDHr7vDk3SlXQLtwZtSGugeJ3e2MSqkCgYEAhrf8
GchhfNXLytdAMgDVWfUIXpwWuzvv31VEhTIwvnq7UaRalqcrzLwfWuEppxiWpMIs
vTR5pX/gpN3NQo6jZ+LcJwQXzMYnBnxSxql7YAIP8WekqNHs4eunt4id90SFoTAo
8f6B3c01Qlas2Gxd+3uDM5Nrzust5x98gwTCe20CgYAwJuVVlAnpcNFmzp8Wr5xQ
pYxfphPLPbWRZHQCrM5RUyfCnBi0LmE+JLfwZHu2dZjAetKkL78rrzUMwHW807OF
/93IJ1TT7fYEhF8r6iVIVmBWLwE2JBujqE/KHUpqRCvgGN+dV8235ftxY90rAaWB
/XJbF6eBjEeOmqqvnuzSSw==
-----END PRIVATE KEY-----
"""

    @Test("an RSA-PSS key is bound to PS256/PS384/PS512 and each round-trips")
    func psOnly() throws {
        let key = try JWTKey(pem: Self.pssPrivateKey)
        #expect(key.algorithms == [.ps256, .ps384, .ps512])
        let verifier = JWTVerifier(key: try JWTKey(pem: try key.publicKeyPEM()))
        for algorithm in [JWTAlgorithm.ps256, .ps384, .ps512] {
            let token = try JWTSigner(key: key, algorithm: algorithm).signJWS(payload: [7])
            #expect(try verifier.verifyJWS(token).payload == [7], "\(algorithm)")
        }
    }

    @Test("an RSA-PSS key can neither sign nor verify RS256")
    func noPKCS1() throws {
        let key = try JWTKey(pem: Self.pssPrivateKey)
        expectJWTError(.algorithmNotAllowed) { try JWTSigner(key: key, algorithm: .rs256) }
        // An RS256 token over the same modulus, made by an rsaEncryption twin of the key
        // (through its JWK, which cannot express the PSS restriction), is still refused.
        let twin = try JWTKey(jwk: key.jwk(includingPrivate: true))
        let rs = try JWTSigner(key: twin, algorithm: .rs256).signJWS(payload: [7])
        expectJWTError(.noMatchingKey) { try JWTVerifier(key: try JWTKey(pem: key.publicKeyPEM())).verifyJWS(rs) }
    }
}
