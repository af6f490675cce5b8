#if Hummingbird && Postgres
import Foundation

/// Builds an unsigned JWT-shaped token carrying `exp` (expiry decisions never check signatures).
func makeJWT(exp: Date?, subject: String = "user-1") -> String {
    func encode(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    var claims: [String: Any] = ["sub": subject]
    if let exp { claims["exp"] = Int(exp.timeIntervalSince1970) }
    return encode(["alg": "HS256", "typ": "JWT"]) + "." + encode(claims) + ".c2lnbmF0dXJl"
}
#endif
