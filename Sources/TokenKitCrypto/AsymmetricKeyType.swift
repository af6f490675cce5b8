internal import COpenSSL

/// The elliptic curves JWS uses (RFC 7518 §3.4, RFC 8812 for secp256k1).
package enum ECCurve: String, Sendable, Hashable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"
    case secp256k1 = "secp256k1"

    /// OpenSSL's group name.
    package var groupName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        case .secp256k1: "secp256k1"
        }
    }

    /// Size in bytes of one coordinate, of the private scalar, and of r and s in a JWS signature.
    package var coordinateSize: Int {
        switch self {
        case .p256, .secp256k1: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// The digest JWS pairs with this curve.
    package var digest: MessageDigest {
        switch self {
        case .p256, .secp256k1: .sha256
        case .p384: .sha384
        case .p521: .sha512
        }
    }

    /// The group order n, big-endian, `coordinateSize` bytes.
    package var order: [UInt8] { ECCurveOrders.shared.order(for: self) }

    /// The curve with OpenSSL group name `name` (either spelling).
    package init?(openSSLGroupName name: String) {
        switch name {
        case "prime256v1", "P-256", "secp256r1": self = .p256
        case "secp384r1", "P-384": self = .p384
        case "secp521r1", "P-521": self = .p521
        case "secp256k1": self = .secp256k1
        default: return nil
        }
    }
}

/// The curve orders, read from OpenSSL once.
private final class ECCurveOrders: Sendable {
    static let shared = ECCurveOrders()
    private let orders: [ECCurve: [UInt8]]

    private init() {
        var orders: [ECCurve: [UInt8]] = [:]
        for curve in ECCurve.allCases {
            let nid = OBJ_sn2nid(curve.groupName)
            guard let group = EC_GROUP_new_by_curve_name(nid), let order = EC_GROUP_get0_order(group) else {
                preconditionFailure("OpenSSL lacks curve \(curve.groupName)")
            }
            var bytes = [UInt8](repeating: 0, count: curve.coordinateSize)
            let written = bytes.withUnsafeMutableBufferPointer { BN_bn2binpad(order, $0.baseAddress, Int32($0.count)) }
            precondition(written == Int32(curve.coordinateSize), "curve order does not fit its coordinate size")
            EC_GROUP_free(group)
            orders[curve] = bytes
        }
        self.orders = orders
    }

    func order(for curve: ECCurve) -> [UInt8] { orders[curve] ?? [] }
}

/// The asymmetric key types TokenKit accepts.
///
/// Every type but ``x25519`` signs (JWS); X25519 only agrees keys (JWE ECDH-ES, RFC 8037
/// §3.2), and EC keys on P-256, P-384 and P-521 do both.
package enum AsymmetricKeyType: Sendable, Hashable, CustomStringConvertible {
    /// RSA (rsaEncryption): usable for RS* and PS*.
    case rsa
    /// RSA restricted to PSS (id-RSASSA-PSS): usable for PS* only.
    case rsaPSS
    /// An EC key on one of the JWS curves.
    case ec(ECCurve)
    /// Ed25519.
    case ed25519
    /// Ed448.
    case ed448
    /// X25519 (RFC 7748): key agreement only, never signatures.
    case x25519

    package var description: String {
        switch self {
        case .rsa: "RSA"
        case .rsaPSS: "RSA-PSS"
        case .ec(let curve): "EC \(curve.rawValue)"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .x25519: "X25519"
        }
    }
}
